// T2 (CK* -> PB*) and T1 (CB* -> PB*): the parent gets a persistent twin,
// launched cooperatively from the host over as many blocks as the device
// holds; its blocks run the original parent blocks, record the child
// launches in a global queue, and after a grid barrier take a whole child
// grid (T2) or a child block (T1) at a time. The original parent stays with
// its launch removed by T4, for a device without cooperative launch. No
// device launch is left: the output builds as plain CUDA.
// RUN: %launchopt --remove-launches=T2 %s -o %t2.cu 2> %t2.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t2.cu | %FileCheck %s --check-prefixes=CHECK,T2
// RUN: %FileCheck %s --check-prefix=REMARK2 < %t2.remarks
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu 2> %t1.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t1.cu | %FileCheck %s --check-prefixes=CHECK,T1
// RUN: %FileCheck %s --check-prefix=REMARK1 < %t1.remarks
// RUN: %nvcc-plain-compile %t2.cu
// RUN: %nvcc-plain-compile %t1.cu
// RUN: %nvcc-compile %t1.cu
// RUN: sh -c '%launchopt --remove-launches=T5 %s -o %t.cu 2> %t.err; test $? -eq 2'
// RUN: %FileCheck %s --check-prefix=USAGE < %t.err
#include <cuda_runtime.h>

// CHECK: #define LAUNCHOPT_PERSISTENT_QUEUE 65536u
// CHECK: // ---- launchopt runtime: launchopt/persistent.cuh ----

__global__ void visit(const int *adjacency, int begin, int degree, int *levels, int level) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < degree)
    atomicMin(&levels[adjacency[begin + e]], level);
}

// CHECK-LABEL: struct __lo_grec_visit {
// CHECK-NEXT: launchopt::persistent::LaunchShape shape;

__global__ void expand(const int *rows, const int *adjacency, int *levels, int n, int level) {
  __shared__ int seen[128];
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  seen[threadIdx.x] = u;
  __syncthreads();
  if (u >= n || levels[u] != level - 1)
    return;
  int begin = rows[u], degree = rows[u + 1] - begin;
  visit<<<(degree + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(adjacency, begin, degree,
                                                                     levels, seen[threadIdx.x]);
}

// The original parent: its launch is run by the launching thread.
// CHECK-LABEL: __global__ void expand(
// CHECK: removed (T4): this thread runs the child grid
// CHECK: __lo_inline_visit(adjacency, begin, degree,

// T2: the persistent parent grid of 'expand' (T2): the launches its threads record, run after a
// T2-NEXT: grid barrier by any of its blocks, a whole child grid at a time.
// T1: the persistent parent grid of 'expand' (T1): the launches its threads record, run after a
// T1-NEXT: grid barrier by any of its blocks, a child block at a time.
// CHECK: __device__ launchopt::persistent::Queue<__lo_grec_visit, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_expand;
// CHECK: static __device__ void __lo_pblock_expand(const int *rows, const int *adjacency, int *levels, int n, int level, const uint3 __lo_blockIdx
// CHECK: const uint3 blockIdx = __lo_blockIdx;
// CHECK: const dim3 gridDim = __lo_gridDim;
// CHECK: __shared__ int seen[128];
// T2: { // launchopt: launch of 'visit' removed (T2): recorded for the persistent parent grid
// T1: { // launchopt: launch of 'visit' removed (T1): recorded for the persistent parent grid
// A cooperative grid cannot launch: no fallback launch for a wrapped grid.
// CHECK-NOT: #ifdef __CUDACC_RDC__
// CHECK: if (!launchopt::persistent::record(__lo_pq_expand, __lo_r1)) {
// A wrapped count's grid stops the grid with the reason rather than run in one thread.
// CHECK-NEXT: if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x))
// CHECK-NEXT: launchopt::persistent::wrappedGridFindsQueueFull();
// CHECK-NEXT: __lo_inline_visit(__lo_r1.args.adjacency, {{.*}} // the queue is full: this thread runs it now
// CHECK: __global__ void __lo_persistent_expand(const dim3 __lo_parentGrid, const int *rows, const int *adjacency, int *levels, int n, int level)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::persistent::runParentBlocks(__lo_parentGrid, [&](uint3 __lo_block) {
// CHECK-NEXT: __lo_pblock_expand(rows, adjacency, levels, n, level, __lo_block, threadIdx, blockDim, __lo_parentGrid);
// T2: launchopt::persistent::runRecorded(__lo_pq_expand, launchopt::persistent::ChildGrids,
// T1: launchopt::persistent::runRecorded(__lo_pq_expand, launchopt::persistent::ChildBlocks,
// CHECK: __lo_ithread_visit(__lo_rec.args.adjacency, {{.*}}, __lo_block, __lo_thread, __lo_rec.shape.block, __lo_rec.shape.grid);

void run(const int *rows, const int *adjacency, int *levels, int n) {
  for (int level = 1; level < 10; ++level)
    expand<<<(n + 127) / 128, 128>>>(rows, adjacency, levels, n, level);
}

// CHECK-LABEL: void run(
// CHECK: launchopt::persistent::launch(__lo_persistent_expand, expand, __lo_pq_expand, launchopt::persistent::Always, (n + 127) / 128, 128, 0, 0, rows, adjacency, levels, n, level);

// REMARK2: remark: remove-launches applied to launch of 'visit' (function: __lo_persistent_expand, launched-if-grid-exceeds: x: degree, persistent-launches: line {{[0-9]+}}, version: T2 (CK* -> PB*))
// REMARK2: every device-side launch of this file is removed: the output builds as plain CUDA
// REMARK1: version: T1 (CB* -> PB*))
// USAGE: --remove-launches takes

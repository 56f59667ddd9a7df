// T3 keeps a block's launches in LAUNCHOPT_REMOVAL_SLOTS shared slots. A
// child of independent threads that finds them full is run by the launching
// thread at once (no device heap, which many blocks overflowing together
// exhaust); one whose launch follows another of the same thread into an
// ordered stream must not overtake it, so its records still go to the heap.
// RUN: %launchopt --remove-launches=T3 %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-plain-compile %t.cu
#include <cuda_runtime.h>

__global__ void visit(const int *adjacency, int begin, int degree, int *levels) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < degree)
    levels[adjacency[begin + e]] = 1;
}

__global__ void add(int *data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += value;
}

__global__ void expand(const int *rows, const int *adjacency, int *levels) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = rows[u], degree = rows[u + 1] - begin;
  visit<<<(degree + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(adjacency, begin, degree, levels);
}

__global__ void bump(int *data) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 3; ++k)
    add<<<1, 64>>>(data + 64 * u, 64, k);
}

// CHECK: static __device__ void __lo_inline_visit(const int *adjacency, int begin, int degree, int *levels, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-LABEL: __global__ void expand(
// CHECK: if (!launchopt::removal::recordInSlots(__lo_rl_visit, __lo_r1))
// CHECK-NEXT: __lo_inline_visit(__lo_r1.args.adjacency, __lo_r1.args.begin, __lo_r1.args.degree, __lo_r1.args.levels, __lo_r1.shape.grid, __lo_r1.shape.block); // the slots are full: this thread runs it now
// CHECK-LABEL: __global__ void bump(
// CHECK: launchopt::removal::record(__lo_rl_add, __lo_r2);
// CHECK-NOT: __lo_inline_add(

void run(const int *rows, const int *adjacency, int *levels, int *data, int n) {
  expand<<<n / 128, 128>>>(rows, adjacency, levels);
  bump<<<n / 128, 128>>>(data);
}

// REMARK: remark: remove-launches applied to launch of 'visit' (function: __lo_bthread_visit, launched-if-grid-exceeds: x: degree, overflow: run by the launching thread (__lo_inline_visit), version: T3 (CKi -> PBi))
// REMARK: remark: remove-launches applied to launch of 'add' (function: __lo_bthread_add, version: T3 (CKi -> PBi))

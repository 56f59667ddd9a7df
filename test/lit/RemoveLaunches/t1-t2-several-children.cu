// A parent that launches several child kernels: one persistent grid records
// them all in one queue, each record tagged with its child's index, and runs
// each with its own copy. Here a kernel that launches itself (its threads
// work together: a shared-memory reduction behind barriers) and, on the
// other branches, a fill or a per-pixel child of independent threads, as
// Mariani-Silver codes are written.
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu --report %t1.txt 2> %t1.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t1.cu | %FileCheck %s --check-prefixes=CHECK,T1
// RUN: %FileCheck %s --check-prefix=REPORT < %t1.txt
// RUN: %nvcc-compile %t1.cu
// RUN: %launchopt --remove-launches=T2 %s -o %t2.cu --report %t2.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=REPORT < %t2.txt
// RUN: %nvcc-compile %t2.cu
// RUN: %launchopt --remove-launches=auto %s -o %ta.cu --report %ta.txt 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %ta.cu | %FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: %FileCheck %s --check-prefix=AUTO-REPORT < %ta.txt
// RUN: %nvcc-compile %ta.cu
#include <cuda_runtime.h>

__device__ int failures;
// A launch check written as a macro: its query cannot be edited, so the
// persistent grid's copies get it as cudaSuccess from a macro of their own.
#define CHECK_LAUNCH()                                                         \
  do {                                                                         \
    if (cudaGetLastError() != cudaSuccess)                                     \
      atomicAdd(&failures, 1);                                                 \
  } while (0)

__device__ int sideValue(const int *image, int x0, int side) {
  __shared__ int partial[64];
  int rank = threadIdx.x;
  int v = 0;
  for (int i = rank; i < side; i += blockDim.x)
    v |= image[x0 + i];
  partial[rank] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (rank < half)
      partial[rank] |= partial[rank + half];
    __syncthreads();
  }
  return partial[0];
}

__global__ void fill(int *out, int x0, int side, int value) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < side)
    out[x0 + x] = value;
}

__global__ void perPixel(int *out, const int *image, int x0, int side) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < side)
    out[x0 + x] = image[x0 + x] * 2;
}

__global__ void subdivide(int *out, const int *image, int x0, int side, int depth) {
  x0 += side * blockIdx.x;
  int common = sideValue(image, x0, side);
  if (threadIdx.x == 0) {
    if (common == 0) {
      fill<<<(side + 63) / 64, 64>>>(out, x0, side, -1);
    } else if (depth < 3 && side >= 64) {
      subdivide<<<4, blockDim.x>>>(out, image, x0, side / 4, depth + 1);
    } else {
      perPixel<<<(side + 63) / 64, 64>>>(out, image, x0, side);
    }
    CHECK_LAUNCH();
  }
}

void run(int *out, const int *image, int n) { subdivide<<<4, 64>>>(out, image, 0, n / 4, 0); }

// CHECK: #define cudaGetLastError() cudaSuccess
// The records' type tags each launch with its child, in the order the
// parent first launches them; bit 1 says the second child's threads work
// together (run as blocks), the others' are packed.
// CHECK: __device__ launchopt::persistent::Queue<launchopt::persistent::RecordOfAny<2u, __lo_grec_fill, __lo_grec_subdivide, __lo_grec_perPixel>, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_subdivide;
// The kernel's copies that the grid runs record all three launches.
// CHECK: static __device__ void __lo_pithread_subdivide_subdivide(
// CHECK: launchopt::persistent::recordAs<0>(__lo_pq_subdivide, __lo_r[[#]])
// CHECK: launchopt::persistent::recordBlocksAs<1>(__lo_pq_subdivide, __lo_r[[#]])
// CHECK: launchopt::persistent::recordAs<2>(__lo_pq_subdivide, __lo_r[[#]])
// The original blocks record them too.
// CHECK: static __device__ void __lo_pblock_subdivide(
// CHECK: launchopt::persistent::recordAs<0>(
// CHECK: launchopt::persistent::recordBlocksAs<1>(
// CHECK: launchopt::persistent::recordAs<2>(
// CHECK: __global__ void __lo_persistent_subdivide(
// T1: launchopt::persistent::runRecorded<true, true>(__lo_pq_subdivide, launchopt::persistent::ChildBlocks,
// AUTO: launchopt::persistent::runRecorded<true, true>(__lo_pq_subdivide, launchopt::persistent::ChildBlocks,
// CHECK: switch (__lo_rec.child) {
// CHECK: case 0: { // 'fill'
// CHECK: const auto &__lo_args = __lo_rec.template argsOf<0>();
// CHECK: __lo_ithread_fill(__lo_args.out, __lo_args.x0, __lo_args.side, __lo_args.value, __lo_block, __lo_thread, __lo_rec.shape.block, __lo_rec.shape.grid);
// CHECK: case 1: { // 'subdivide'
// CHECK: __lo_pithread_subdivide_subdivide(
// CHECK: case 2: { // 'perPixel'
// CHECK: __lo_ithread_perPixel(
// CHECK: #undef cudaGetLastError
// CHECK: launchopt::persistent::launch<true, true>(__lo_persistent_subdivide, subdivide, __lo_pq_subdivide,

// REPORT-DAG: ('subdivide' -> 'fill'): remove-launches: applied
// REPORT-DAG: ('subdivide' -> 'subdivide'): remove-launches: applied
// REPORT-DAG: ('subdivide' -> 'perPixel'): remove-launches: applied
// AUTO-REPORT: ('subdivide' -> 'fill'): remove-launches: applied
// AUTO-REPORT-NEXT: auto: megakernel {{.*}}; another child of the parent works together in blocks, so the grid takes every child's blocks one at a time (T1)
// AUTO-REPORT-COUNT-3: version: megakernel

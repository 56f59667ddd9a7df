// A removed launch runs its child only when the launch would have started,
// and a grid that is not the ceiling of its count (an unsigned count of 0 in
// `(n - 1) / 32 + 1` wraps to 2^27 blocks) is launched as written where the
// build has the device runtime, not run block by block by one thread or block.
// RUN: %launchopt --remove-launches=T4 %s -o %t4.cu 2> %t4.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t4.cu | %FileCheck %s --check-prefixes=CHECK,T4
// RUN: %FileCheck %s --check-prefix=REMARK < %t4.remarks
// RUN: %launchopt --remove-launches=T3 %s -o %t3.cu 2> %t3.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t3.cu | %FileCheck %s --check-prefixes=CHECK,T3
// RUN: %nvcc-plain-compile %t4.cu
// RUN: %nvcc-compile %t4.cu
// RUN: %nvcc-plain-compile %t3.cu
// RUN: %nvcc-compile %t3.cu
#include <cuda_runtime.h>

// CHECK: // ---- launchopt runtime: launchopt/removal_guard.cuh ----
// CHECK: static __device__ inline bool launchable(const dim3 &grid, const dim3 &block) {

__global__ void fill(unsigned *d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = i;
}

__global__ void start(unsigned *d, const unsigned *lengths) {
  unsigned n = lengths[threadIdx.x];
  fill<<<(n - 1) / 32 + 1, 32, 0, cudaStreamFireAndForget>>>(d, n);
}

// CHECK-LABEL: __global__ void start(
// CHECK: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x - 1) / 32 + 1;
// CHECK-NEXT: const dim3 __lo_block1 = 32;
// CHECK-NEXT: if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
// CHECK-NEXT: // the launch would fail: its child never runs
// CHECK-NEXT: #ifdef __CUDACC_RDC__
// CHECK-NEXT: } else if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x)) {
// CHECK-NEXT: // not the ceiling of its count (a wrapped count): launched as written
// CHECK-NEXT: fill<<<__lo_grid1, __lo_block1, 0, cudaStreamFireAndForget>>>(d, n);
// CHECK-NEXT: #endif
// CHECK-NEXT: } else {
// T4: __lo_inline_fill(d, n, __lo_grid1, __lo_block1);
// T3: if (!launchopt::removal::recordInSlots(__lo_rl_fill, __lo_r1))

void run(unsigned *d, const unsigned *lengths) { start<<<1, 64>>>(d, lengths); }

// REMARK: remark: remove-launches applied to launch of 'fill' (function: __lo_inline_fill, launched-if-grid-exceeds: x: n, version: T4 (CKi -> PTi))
// REMARK: every device-side launch of this file is removed: the output builds as plain CUDA

// T3 (CKi -> PBi) for a child with __syncthreads and shared memory whose
// block (64 threads) is smaller than the parent block (128): the first 64
// parent threads run each child block, and the child's barrier spans only
// them (childBarrier). The launch sits in a loop under a branch, after an
// early return: the parent's body runs as a lambda, so every thread reaches
// the block's end, where the recorded launches run.
// RUN: %launchopt --remove-launches=T3 %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-plain-compile %t.cu
#include <cuda_runtime.h>

__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, partial[0]);
}

// CHECK-LABEL: struct __lo_rec_block_sum {
// CHECK-NEXT: launchopt::removal::LaunchShape shape;
// CHECK-NEXT: struct Arguments {
// CHECK-NEXT: const float *in;
// CHECK-NEXT: float *out;
// CHECK-NEXT: int n;
// CHECK-NEXT: __device__ Arguments(const float *in, float *out, int n) : in(in), out(out), n(n) {}
// CHECK-NEXT: } args;
// CHECK-NEXT: };
// CHECK: static __device__ void __lo_bthread_block_sum(const float *in, float *out, int n, const uint3 __lo_blockIdx
// CHECK: auto __syncthreads = [&]() {
// CHECK-NEXT: launchopt::removal::childBarrier(blockDim.x * blockDim.y * blockDim.z);
// CHECK-NEXT: };
// CHECK-NEXT: {
// CHECK-NEXT: __shared__ float partial[64];

__global__ void parent(const float *const *rows, const int *lengths, float *sums, int count) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= count)
    return;
  if (lengths[r] > 0) {
    for (int pass = 0; pass < 2; ++pass)
      block_sum<<<(lengths[r] + 63) / 64, 64>>>(rows[r], &sums[2 * r + pass], lengths[r]);
  }
}

// CHECK-LABEL: __global__ void parent(
// CHECK-NEXT: // launchopt: the launches this block's threads make (T3), run by the whole block when
// CHECK-NEXT: // every thread is done with the parent's own work.
// CHECK-NEXT: __shared__ launchopt::removal::BlockLaunches<__lo_rec_block_sum, LAUNCHOPT_REMOVAL_SLOTS> __lo_rl_block_sum;
// CHECK-NEXT: launchopt::removal::open(__lo_rl_block_sum);
// CHECK-NEXT: [&]() {
// CHECK: return;
// CHECK: { // launchopt: launch of 'block_sum' removed (T3): recorded for the parent block, which runs it at its end
// CHECK-NEXT: const auto __lo_n1_x = (lengths[r]);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x + 63) / 64;
// CHECK-NEXT: const dim3 __lo_block1 = 64;
// CHECK-NEXT: if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
// CHECK: } else {
// CHECK-NEXT: const __lo_rec_block_sum __lo_r1 = {{[{][{]}}__lo_grid1, __lo_block1, (unsigned)(0)}, __lo_rec_block_sum::Arguments(rows[r], &sums[2 * r + pass], lengths[r])};
// The child synchronizes: beyond the slots its records go to the device heap.
// CHECK-NEXT: launchopt::removal::record(__lo_rl_block_sum, __lo_r1);
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: }();
// CHECK-NEXT: launchopt::removal::run(__lo_rl_block_sum, true,
// CHECK-NEXT: [&](const __lo_rec_block_sum &__lo_rec, uint3 __lo_block, uint3 __lo_thread) {
// CHECK-NEXT: __lo_bthread_block_sum(__lo_rec.args.in, __lo_rec.args.out, __lo_rec.args.n, __lo_block, __lo_thread, __lo_rec.shape.block,
// CHECK-NEXT: __lo_rec.shape.grid);

void run(const float *const *rows, const int *lengths, float *sums, int count) {
  parent<<<(count + 127) / 128, 128>>>(rows, lengths, sums, count);
}

// REMARK: t3-syncthreads-shared-smaller-block.cu:49:7: remark: remove-launches applied to launch of 'block_sum' (function: __lo_bthread_block_sum, launched-if-grid-exceeds: x: lengths[r], version: T3 (CKi -> PBi))
// REMARK: remove-launches: every device-side launch of this file is removed: the output builds as plain CUDA

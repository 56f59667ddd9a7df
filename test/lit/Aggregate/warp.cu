// Warp granularity: one scope per warp in shared memory; lane 0 of each warp
// launches the warp's records at the end of the block.
// RUN: %launchopt --aggregate=warp %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += gridDim.x;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NEXT: // launchopt: this kernel's launches are aggregated (warp granularity).
// CHECK: __shared__ launchopt::AggregationScope __lo_agg1_warps[32];
// CHECK-NEXT: if (__lo_thread < (__lo_blockThreads + 31) / 32) {
// CHECK-NEXT: launchopt::clearScope(&__lo_agg1_warps[__lo_thread]);
// CHECK-NEXT: launchopt::openScope(&__lo_agg1_warps[__lo_thread], min(32u, __lo_blockThreads - 32 * __lo_thread), sizeof(__lo_uargs_child));
// CHECK-NEXT: }
// CHECK-NEXT: launchopt::AggregationScope *__lo_agg1 = &__lo_agg1_warps[__lo_thread / 32];
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: __lo_part_parent(d, sizes, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: if (__lo_thread % 32 == 0)
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, true);
// CHECK-NEXT: }

void host(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

// CHECK-LABEL: void host(float *d, const int *sizes) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 4, __lo_hblock = 256; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); }

// REMARK: warp.cu:16:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: warp, uniform-arguments: d)

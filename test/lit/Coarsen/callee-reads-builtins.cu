// A child that calls a device function reading blockIdx and threadIdx: the
// per-block function calls a shadow copy of it with the original block's
// values, so 'gid' sees the original block, not the coarsened one.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

// CHECK-LABEL: __device__ int __lo_sh_gid(const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)
// CHECK-NEXT: {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;
// CHECK-NEXT: const uint3 threadIdx = __lo_threadIdx;
// CHECK-NEXT: const dim3 blockDim = __lo_blockDim;
// CHECK-NEXT: const dim3 gridDim = __lo_gridDim;
// CHECK-NEXT: (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
// CHECK-NEXT: { return blockIdx.x * blockDim.x + threadIdx.x; }
// CHECK-NEXT: }

__global__ void child(float *d, int n) {
  if (gid() < n)
    d[gid()] += 1.0f;
}

// CHECK-LABEL: __global__ void __lo_coarse_child(float *d, int n, const dim3 __lo_originalGrid)
// CHECK: { // one original block
// CHECK: if (__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim) < n)
// CHECK-NEXT: d[__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim)] += 1.0f;

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

// REMARK: callee-reads-builtins.cu:[[@LINE-3]]:3: remark: coarsen applied to launch of 'child'

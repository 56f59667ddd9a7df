// A child that calls a device function reading blockIdx and threadIdx: the
// child's part function calls a shadow copy of it with the original launch's
// values, so inside the aggregated grid 'gid' still sees the original block.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
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

// CHECK-LABEL: static __device__ void __lo_part_child(float *d, int n, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK: if (__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim) < n)
// CHECK-NEXT: d[__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim)] += 1.0f;

__global__ void child(float *d, int n) {
  if (gid() < n)
    d[gid()] += 1.0f;
}

// The parent's part function runs with the real built-ins: its own call is
// left as written.
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: int n = sizes[gid()];

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[gid()];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

// REMARK: callee-reads-builtins.cu:[[@LINE-3]]:3: remark: aggregate applied to launch of 'child'

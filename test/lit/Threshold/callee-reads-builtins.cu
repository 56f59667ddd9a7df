// A child that calls a device function reading blockIdx and threadIdx: the
// function gets a shadow copy that takes the four built-ins as parameters,
// and the serial copy of the child calls it with its shadowing locals.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

// CHECK-LABEL: __device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
// CHECK-EMPTY:
// CHECK-NEXT: // launchopt: 'gid' for copied kernel bodies: the built-in index variables
// CHECK-NEXT: // are passed in and shadowed, as in the copy that calls it.
// CHECK-NEXT: __device__ int __lo_sh_gid(const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
    d[gid()] = 0.0f;
}

// The original child keeps calling the original function.
// CHECK-LABEL: __global__ void child(float *d, int n) {
// CHECK-NEXT: if (gid() < n)
// CHECK-NEXT: d[gid()] = 0.0f;
// CHECK-LABEL: static __device__ void __lo_thread_child(float *d, int n, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK: if (__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim) < n)
// CHECK-NEXT: d[__lo_sh_gid(blockIdx, threadIdx, blockDim, gridDim)] = 0.0f;

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// Copied once although two launches need it.
// CHECK-NOT: __lo_sh_gid(const uint3

__global__ void parent2(float *d, int n) {
  child<<<(n + 63) / 64, 64>>>(d, n);
}

// REMARK: callee-reads-builtins.cu:41:3: remark: threshold applied to launch of 'child'
// REMARK: callee-reads-builtins.cu:48:3: remark: threshold applied to launch of 'child'

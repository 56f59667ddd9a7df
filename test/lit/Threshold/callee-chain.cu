// Two levels: the child calls 'offset', which calls 'lane', which reads
// threadIdx. Both get shadow copies; the copy of 'offset' calls the copy of
// 'lane'. 'lane' is declared before and defined after 'offset', so its copy
// is declared after its first declaration and defined after its definition.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ unsigned lane(unsigned width);

// CHECK-LABEL: __device__ unsigned lane(unsigned width);
// CHECK-NEXT: __device__ unsigned __lo_sh_lane(unsigned width, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim);

__device__ unsigned offset(unsigned base, unsigned width) { return base + lane(width); }

// CHECK-LABEL: __device__ unsigned __lo_sh_offset(unsigned base, unsigned width, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)
// CHECK-NEXT: {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;
// CHECK: { return base + __lo_sh_lane(width, blockIdx, threadIdx, blockDim, gridDim); }

__device__ unsigned lane(unsigned width) {
  return threadIdx.x % width;
}

// CHECK-LABEL: __device__ unsigned __lo_sh_lane(unsigned width, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)
// CHECK-NEXT: {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;
// CHECK-NEXT: const uint3 threadIdx = __lo_threadIdx;
// CHECK: return threadIdx.x % width;

__global__ void child(unsigned *out, unsigned base) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = offset(base, 8);
}

// CHECK-LABEL: static __device__ void __lo_thread_child(
// CHECK: out[blockIdx.x * blockDim.x + threadIdx.x] = __lo_sh_offset(base, 8, blockIdx, threadIdx, blockDim, gridDim);

__global__ void parent(unsigned *out, const unsigned *sizes) {
  unsigned n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(out, n);
}

// REMARK: callee-chain.cu:[[@LINE-3]]:3: remark: threshold applied to launch of 'child'

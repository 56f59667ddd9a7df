// Two levels, at grid granularity: 'first_of_block' calls 'block_base',
// which reads blockIdx and blockDim; both get shadow copies, the second
// calling the first, before the child's part function uses them.
// RUN: %launchopt --aggregate=grid %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ int block_base() { return blockIdx.x * blockDim.x; }
__device__ bool first_of_block(int i) { return i == block_base(); }

// CHECK-LABEL: __device__ int __lo_sh_block_base(const uint3 __lo_blockIdx,
// CHECK-LABEL: __device__ bool __lo_sh_first_of_block(int i, const uint3 __lo_blockIdx,
// CHECK: { return i == __lo_sh_block_base(blockIdx, threadIdx, blockDim, gridDim); }
// CHECK-LABEL: static __device__ void __lo_part_child(int *count, const uint3 __lo_blockIdx,
// CHECK: if (__lo_sh_first_of_block(i, blockIdx, threadIdx, blockDim, gridDim))

__global__ void child(int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (first_of_block(i))
    atomicAdd(count, 1);
}

__global__ void parent(int *count, const int *sizes) {
  child<<<sizes[threadIdx.x], 32>>>(count);
}

// REMARK: callee-chain.cu:[[@LINE-3]]:3: remark: aggregate applied to launch of 'child'

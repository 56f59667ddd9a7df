// Two levels: the child calls 'row', which calls 'block_row', which reads
// blockIdx and blockDim; both get shadow copies, placed after their
// originals, the second one calling the first.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ int block_row() { return blockIdx.y * blockDim.y; }

// CHECK-LABEL: __device__ int block_row() { return blockIdx.y * blockDim.y; }
// CHECK-EMPTY:
// CHECK-NEXT: // launchopt: 'block_row' for copied kernel bodies
// CHECK: __device__ int __lo_sh_block_row(const uint3 __lo_blockIdx,

__device__ int row() { return block_row() + threadIdx.y; }

// CHECK-LABEL: __device__ int row() { return block_row() + threadIdx.y; }
// CHECK-EMPTY:
// CHECK-NEXT: // launchopt: 'row' for copied kernel bodies
// CHECK: __device__ int __lo_sh_row(const uint3 __lo_blockIdx,
// CHECK: { return __lo_sh_block_row(blockIdx, threadIdx, blockDim, gridDim) + threadIdx.y; }

__global__ void child(int *out, int width) {
  out[row() * width + blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// CHECK-LABEL: __global__ void __lo_coarse_child(
// CHECK: { // one original block
// CHECK: out[__lo_sh_row(blockIdx, threadIdx, blockDim, gridDim) * width + blockIdx.x * blockDim.x + threadIdx.x] = 1;

__global__ void parent(int *out, int width, int height) {
  child<<<dim3(width / 16, height / 16), dim3(16, 16)>>>(out, width);
}

// REMARK: callee-chain.cu:[[@LINE-3]]:3: remark: coarsen applied to launch of 'child'

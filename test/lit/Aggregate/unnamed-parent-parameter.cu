// A parent with an unnamed parameter: the wrapper passes every parameter to
// the part function, so the parameter is named in the parent's signature.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int) { d[threadIdx.x] = 1.0f; }

__global__ void parent(float *d, int) {
  child<<<1, 32>>>(d + threadIdx.x * 32, 7);
}

// CHECK-LABEL: static __device__ void __lo_part_parent(float *d, int __lo_p1 , const uint3 __lo_blockIdx,
// CHECK-LABEL: __global__ void parent(float *d, int __lo_p1) {
// CHECK: __lo_part_parent(d, __lo_p1, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);

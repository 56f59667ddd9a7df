// T3 runs a child's blocks in the parent block's shared memory: a child that
// asks for more dynamic shared memory than the parent's launches give it is
// refused; one that fits is taken.
// RUN: %launchopt --remove-launches=T3 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cuda_runtime.h>

__global__ void staged(float *out) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}

__global__ void big(float **outs) { staged<<<1, 32, 4096>>>(outs[threadIdx.x]); }
__global__ void fits(float **outs) { staged<<<1, 32, 128>>>(outs[threadIdx.x]); }

void run(float **outs) {
  big<<<1, 32, 1024>>>(outs);
  fits<<<1, 32, 1024>>>(outs);
}

// CHECK: :16:37: remark: not removed: the child's dynamic shared memory (4096 bytes) may be larger than the parent block has (1024 bytes)
// CHECK: :17:38: remark: remove-launches applied to launch of 'staged' (function: __lo_bthread_staged, version: T3 (CKi -> PBi))

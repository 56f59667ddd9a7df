// A child block that needs more threads than the parent block, when the child
// uses __syncthreads, cannot be run by the parent block (T3), nor by one
// parent thread (T4): the launch stays, with both reasons; so does one whose
// parent block size is not known in this file. The output keeps its device
// launches, so the file-wide note is absent.
// RUN: %launchopt --remove-launches %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cuda_runtime.h>

__global__ void wide(int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void parent(int **outs) { wide<<<1, 256>>>(outs[threadIdx.x]); }
__global__ void unseen_parent(int **outs) { wide<<<1, 256>>>(outs[threadIdx.x]); }

void run(int **outs) { parent<<<1, 128>>>(outs); }

// CHECK: :18:38: remark: not removed: T3: the child block (256 threads) may need more threads than the parent block (128 threads) and the child uses __syncthreads: its threads must run at once; T4: T4 runs the child's threads one after another in the parent thread: child uses __syncthreads
// CHECK: :19:45: remark: not removed: T3: the child block (256 threads) may need more threads than the parent block (a block size not known here (no launch of 'unseen_parent' in this file)) and the child uses __syncthreads
// CHECK-NOT: every device-side launch

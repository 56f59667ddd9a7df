// How many launches --auto's model counts follows the guards as real code
// writes them: an early `if (threadIdx.x != 0) return;` leaves one launch per
// parent block, and `blockIdx.x == 0 && threadIdx.x == 0` one per grid.
// RUN: %launchopt --auto %s -o %t.cu --report %t.txt 2> /dev/null
// RUN: %FileCheck %s < %t.txt
// RUN: %nvcc-compile %t.cu
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

__global__ void perBlock(float *x, const int *sizes) {
  if (threadIdx.x != 0)
    return;
  int n = sizes[blockIdx.x];
  scale<<<(n + 255) / 256, 256>>>(x + blockIdx.x * 4096, n);
}

__global__ void once(float *x, int n) {
  int tid = threadIdx.x;
  if (blockIdx.x == 0 && tid == 0)
    scale<<<(n + 255) / 256, 256>>>(x, n);
}

void run(float *x, const int *sizes, int n) {
  perBlock<<<64, 128>>>(x, sizes);
  once<<<64, 128>>>(x, n);
}

// CHECK: ('perBlock' -> 'scale'): auto:
// CHECK: launches: one per parent block
// CHECK: ('once' -> 'scale'): auto:
// CHECK: launches: one per parent grid

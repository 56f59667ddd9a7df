// In a pipeline, a later pass reads the text an earlier pass wrote; the
// lines its remarks name in their text are the input's, as their positions
// are: the host launch at line 28 and the device-side cudaMalloc and
// cudaFree at lines 17 and 21, not where the thresholded and coarsened text
// has them.
// RUN: %launchopt --threshold --coarsen --aggregate=host %s -o %t.cu --report=%t.report
// RUN: %FileCheck %s < %t.report
// CHECK: host-launch: after the parent's launch at line 28,
// CHECK: (cudaMalloc at line 17, cudaFree at line 21)
#include <cuda_runtime.h>

__global__ void child(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}
__global__ void parent(float **out, const int *sizes) {
  float *p = nullptr; cudaMalloc(&p, 4 * sizeof(float));
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(out[threadIdx.x], n);
  if (p)
    cudaFree(p);
}

int main() {
  float **out = nullptr;
  int *sizes = nullptr;
  // The host launch that host-launched aggregation follows.
  parent<<<1, 32>>>(out, sizes);
  return cudaDeviceSynchronize() != cudaSuccess;
}

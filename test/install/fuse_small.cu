// A host function launching three memory-bound kernels in sequence, the
// smallest input on which `launchopt fuse` searches and generates a plan.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(const float *in, float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.0f * in[i];
}
__global__ void shift(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] + 1.0f;
}
__global__ void blur(const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = (b[i - 1] + b[i] + b[i + 1]) / 3.0f;
}

void step(const float *in, float *a, float *b, float *out, int n) {
  int blocks = (n + 255) / 256;
  scale<<<blocks, 256>>>(in, a, n);
  shift<<<blocks, 256>>>(a, b, n);
  blur<<<blocks, 256>>>(b, out, n);
}

int main() {
  const int n = 1 << 20;
  float *in, *a, *b, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  step(in, a, b, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  return err == cudaSuccess ? 0 : 1;
}

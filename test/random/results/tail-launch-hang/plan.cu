// Tail launches from a list of (block, thread, kernel): which lists never finish?
#include <cstdio>
#include <cstdlib>
#include <cstring>
__device__ unsigned cells[64];
__constant__ int planBlock[256], planThread[256], planKernel[256];
__constant__ int planCount;
__global__ void e1() {}
__global__ void e2(unsigned salt) { atomicAdd(&cells[salt % 64], 1u); }
__global__ void e3(unsigned salt) {
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&cells[(salt + 7) % 64], 1u);
}
__global__ void parent() {
  for (int i = 0; i < planCount; ++i) {
    if (planBlock[i] != (int)blockIdx.x || planThread[i] != (int)threadIdx.x)
      continue;
    if (planKernel[i] == 0)
      e1<<<3, 64, 0, cudaStreamTailLaunch>>>();
    else if (planKernel[i] == 1)
      e2<<<1, 1, 0, cudaStreamTailLaunch>>>(i);
    else
      e3<<<1, 32, 0, cudaStreamTailLaunch>>>(i);
  }
}
int main(int argc, char **argv) {
  int b[256], t[256], k[256], n = 0;
  for (int a = 1; a < argc && n < 256; ++a, ++n)
    sscanf(argv[a], "%d:%d:%d", &b[n], &t[n], &k[n]);
  cudaMemcpyToSymbol(planBlock, b, sizeof b);
  cudaMemcpyToSymbol(planThread, t, sizeof t);
  cudaMemcpyToSymbol(planKernel, k, sizeof k);
  cudaMemcpyToSymbol(planCount, &n, sizeof n);
  parent<<<4, 128>>>();
  cudaError_t e = cudaDeviceSynchronize();
  printf("%d launches: %s\n", n, cudaGetErrorString(e));
  return 0;
}

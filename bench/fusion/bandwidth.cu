// Device bandwidth for the GPU description (gpus/h100.json): a large
// device-to-device copy, bytes read plus bytes written over the median time.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

int main() {
  const size_t Bytes = size_t(2) << 30;
  void *A, *B;
  if (cudaMalloc(&A, Bytes) != cudaSuccess || cudaMalloc(&B, Bytes) != cudaSuccess) {
    printf("bandwidth: allocation failed\n");
    return 1;
  }
  cudaMemset(A, 0x5a, Bytes);
  cudaEvent_t Start, Stop;
  cudaEventCreate(&Start);
  cudaEventCreate(&Stop);
  std::vector<float> Ms(20);
  for (int W = 0; W < 3; ++W)
    cudaMemcpy(B, A, Bytes, cudaMemcpyDeviceToDevice);
  for (float &M : Ms) {
    cudaEventRecord(Start);
    cudaMemcpy(B, A, Bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(Stop);
    cudaEventSynchronize(Stop);
    cudaEventElapsedTime(&M, Start, Stop);
  }
  std::sort(Ms.begin(), Ms.end());
  cudaDeviceProp P;
  cudaGetDeviceProperties(&P, 0);
  printf("device: %s, %d multiprocessors, %d registers/SM, %zu bytes shared memory/SM, L2 %d bytes\n",
         P.name, P.multiProcessorCount, P.regsPerMultiprocessor, P.sharedMemPerMultiprocessor,
         P.l2CacheSize);
  printf("bandwidth: device-to-device copy of %zu MiB: median %.3f ms, %.1f GB/s (read + write)\n",
         Bytes >> 20, Ms[Ms.size() / 2], 2.0 * Bytes / (Ms[Ms.size() / 2] * 1e-3) / 1e9);
  return cudaGetLastError() != cudaSuccess;
}

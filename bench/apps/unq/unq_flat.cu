// Unique, iterative: the host launches one single-block kernel per step; the
// offset (the carry) stays in device memory between the launches.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

__global__ void unq_step_flat(const int* __restrict__ in, int* out, int* count, int n, int step) {
  __shared__ int scan[kUnqBlock];
  const int offset = *count;
  const int i = step * kUnqBlock + threadIdx.x;
  const int keep = i < n && (i == 0 || in[i] != in[i - 1]) ? 1 : 0;
  scan[threadIdx.x] = keep;
  __syncthreads();
  for (int d = 1; d < kUnqBlock; d *= 2) {
    int add = threadIdx.x >= d ? scan[threadIdx.x - d] : 0;
    __syncthreads();
    scan[threadIdx.x] += add;
    __syncthreads();
  }
  if (keep) out[offset + scan[threadIdx.x] - 1] = in[i];
  if (threadIdx.x == 0) *count = offset + scan[kUnqBlock - 1];
}

}  // namespace

int unq_run(const int* d_in, int n, int* d_out, int* d_count) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  cudaMemset(d_count, 0, sizeof(int));
  const int steps = (n + kUnqBlock - 1) / kUnqBlock;
  for (int s = 0; s < steps; ++s) unq_step_flat<<<1, kUnqBlock>>>(d_in, d_out, d_count, n, s);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

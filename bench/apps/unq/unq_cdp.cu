// Unique, naive CUDA dynamic parallelism: one single-block kernel per step of
// kUnqBlock elements; an element is kept when it differs from the one before
// it (read from global memory, across the step's edge too), the kept ones are
// scanned and written after `offset`, and thread 0 relaunches the kernel for
// the next step with the new offset (the carry).
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

__device__ unsigned int unq_failed_launches;

__global__ void unq_step(const int* __restrict__ in, int* out, int* count, int n, int step, int offset) {
  __shared__ int scan[kUnqBlock];
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
  const int next_offset = offset + scan[kUnqBlock - 1];
  if (threadIdx.x == 0) {
    if ((step + 1) * kUnqBlock < n) {
      unq_step<<<1, kUnqBlock>>>(in, out, count, n, step + 1, next_offset);
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&unq_failed_launches, 1u);
    } else {
      *count = next_offset;
    }
  }
}

}  // namespace

int unq_run(const int* d_in, int n, int* d_out, int* d_count) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(unq_failed_launches, &zero, sizeof zero);
  unq_step<<<1, kUnqBlock>>>(d_in, d_out, d_count, n, 0, 0);
  cudaMemcpyFromSymbol(&failed, unq_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

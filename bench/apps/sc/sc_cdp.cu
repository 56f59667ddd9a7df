// Stream compaction, naive CUDA dynamic parallelism: one single-block kernel
// per step of kScBlock elements; it scans its keep flags, writes its kept
// elements after `offset`, and its thread 0 relaunches the kernel for the next
// step with the new offset (the carry), so the chain is as deep as the steps.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

__device__ unsigned int sc_failed_launches;

__global__ void sc_step(const int* __restrict__ in, int* out, int* count, int n, int step, int offset) {
  __shared__ int scan[kScBlock];
  const int i = step * kScBlock + threadIdx.x;
  const int keep = i < n && sc_keep(in[i]) ? 1 : 0;
  scan[threadIdx.x] = keep;
  __syncthreads();
  for (int d = 1; d < kScBlock; d *= 2) {
    int add = threadIdx.x >= d ? scan[threadIdx.x - d] : 0;
    __syncthreads();
    scan[threadIdx.x] += add;
    __syncthreads();
  }
  if (keep) out[offset + scan[threadIdx.x] - 1] = in[i];
  const int next_offset = offset + scan[kScBlock - 1];
  if (threadIdx.x == 0) {
    if ((step + 1) * kScBlock < n) {
      sc_step<<<1, kScBlock>>>(in, out, count, n, step + 1, next_offset);
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&sc_failed_launches, 1u);
    } else {
      *count = next_offset;
    }
  }
}

}  // namespace

int sc_run(const int* d_in, int n, int* d_out, int* d_count) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(sc_failed_launches, &zero, sizeof zero);
  sc_step<<<1, kScBlock>>>(d_in, d_out, d_count, n, 0, 0);
  cudaMemcpyFromSymbol(&failed, sc_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

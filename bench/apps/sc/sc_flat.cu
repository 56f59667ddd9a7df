// Stream compaction, iterative: the host launches one single-block kernel per
// step; the offset (the carry) stays in device memory between the launches.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

__global__ void sc_step_flat(const int* __restrict__ in, int* out, int* count, int n, int step) {
  __shared__ int scan[kScBlock];
  const int offset = *count;
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
  if (threadIdx.x == 0) *count = offset + scan[kScBlock - 1];
}

}  // namespace

int sc_run(const int* d_in, int n, int* d_out, int* d_count) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  cudaMemset(d_count, 0, sizeof(int));
  const int steps = (n + kScBlock - 1) / kScBlock;
  for (int s = 0; s < steps; ++s) sc_step_flat<<<1, kScBlock>>>(d_in, d_out, d_count, n, s);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

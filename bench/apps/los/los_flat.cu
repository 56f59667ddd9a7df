// Line of sight, iterative: the host launches one single-block kernel per
// step; the largest slope so far (the carry) stays in device memory.
#include <cuda_runtime.h>
#include <math.h>

#include "../../common/bench_api.h"

namespace {

__device__ float los_carry;

__global__ void los_step_flat(const int* __restrict__ heights, int* visible, int n, int step) {
  __shared__ float prefix[kLosBlock];
  const float max_before = step == 0 ? -INFINITY : los_carry;
  const int i = step * kLosBlock + threadIdx.x;
  const float slope = i >= 1 && i < n ? los_slope(heights[0], heights[i], i) : -INFINITY;
  prefix[threadIdx.x] = slope;
  __syncthreads();
  for (int d = 1; d < kLosBlock; d *= 2) {
    float other = threadIdx.x >= d ? prefix[threadIdx.x - d] : -INFINITY;
    __syncthreads();
    prefix[threadIdx.x] = fmaxf(prefix[threadIdx.x], other);
    __syncthreads();
  }
  const float before = fmaxf(max_before, threadIdx.x > 0 ? prefix[threadIdx.x - 1] : -INFINITY);
  if (i < n) visible[i] = i == 0 || slope >= before ? 1 : 0;
  if (threadIdx.x == 0) los_carry = fmaxf(max_before, prefix[kLosBlock - 1]);
}

}  // namespace

int los_run(const int* d_heights, int n, int* d_visible) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  const int steps = (n + kLosBlock - 1) / kLosBlock;
  for (int s = 0; s < steps; ++s) los_step_flat<<<1, kLosBlock>>>(d_heights, d_visible, n, s);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

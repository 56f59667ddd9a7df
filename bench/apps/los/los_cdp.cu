// Line of sight, naive CUDA dynamic parallelism: one single-block kernel per
// step of kLosBlock points; it takes the largest slope before the step (the
// carry), marks its visible points with a prefix maximum, and its thread 0
// relaunches the kernel for the next step with the new largest slope.
#include <cuda_runtime.h>
#include <math.h>

#include "../../common/bench_api.h"

namespace {

__device__ unsigned int los_failed_launches;

__global__ void los_step(const int* __restrict__ heights, int* visible, int n, int step, float max_before) {
  __shared__ float prefix[kLosBlock];
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
  const float next_max = fmaxf(max_before, prefix[kLosBlock - 1]);
  if (threadIdx.x == 0 && (step + 1) * kLosBlock < n) {
    los_step<<<1, kLosBlock>>>(heights, visible, n, step + 1, next_max);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&los_failed_launches, 1u);
  }
}

}  // namespace

int los_run(const int* d_heights, int n, int* d_visible) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(los_failed_launches, &zero, sizeof zero);
  los_step<<<1, kLosBlock>>>(d_heights, d_visible, n, 0, -INFINITY);
  cudaMemcpyFromSymbol(&failed, los_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

// Partition, naive CUDA dynamic parallelism: one single-block kernel per step
// of kPtBlock elements; it scans its front flags, writes its front elements
// after `front` and its other elements before the end, counting `back` from
// there, and its thread 0 relaunches the kernel for the next step with the two
// new offsets (the carry), so the chain is as deep as the steps.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

__device__ unsigned int pt_failed_launches;

__global__ void pt_step(const int* __restrict__ in, int* out, int* count, int n, int step, int front,
                        int back) {
  __shared__ int scan[kPtBlock];
  const int i = step * kPtBlock + threadIdx.x;
  const bool valid = i < n;
  const int is_front = valid && pt_front(in[i]) ? 1 : 0;
  scan[threadIdx.x] = is_front;
  __syncthreads();
  for (int d = 1; d < kPtBlock; d *= 2) {
    int add = threadIdx.x >= d ? scan[threadIdx.x - d] : 0;
    __syncthreads();
    scan[threadIdx.x] += add;
    __syncthreads();
  }
  const int front_before = scan[threadIdx.x] - is_front;
  if (valid) {
    if (is_front)
      out[front + front_before] = in[i];
    else
      out[n - 1 - (back + static_cast<int>(threadIdx.x) - front_before)] = in[i];
  }
  const int in_step = min(kPtBlock, n - step * kPtBlock);
  const int next_front = front + scan[kPtBlock - 1];
  const int next_back = back + in_step - scan[kPtBlock - 1];
  if (threadIdx.x == 0) {
    if ((step + 1) * kPtBlock < n) {
      pt_step<<<1, kPtBlock>>>(in, out, count, n, step + 1, next_front, next_back);
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&pt_failed_launches, 1u);
    } else {
      *count = next_front;
    }
  }
}

}  // namespace

int pt_run(const int* d_in, int n, int* d_out, int* d_count) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(pt_failed_launches, &zero, sizeof zero);
  pt_step<<<1, kPtBlock>>>(d_in, d_out, d_count, n, 0, 0, 0);
  cudaMemcpyFromSymbol(&failed, pt_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

// Partition, iterative: the host launches one single-block kernel per step;
// the two offsets (the carry) stay in device memory between the launches.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

__global__ void pt_step_flat(const int* __restrict__ in, int* out, int* offsets, int n, int step) {
  __shared__ int scan[kPtBlock];
  const int front = offsets[0], back = offsets[1];
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
  // Every thread has read the offsets before thread 0 moves them on.
  __syncthreads();
  if (threadIdx.x == 0) {
    const int in_step = min(kPtBlock, n - step * kPtBlock);
    offsets[0] = front + scan[kPtBlock - 1];
    offsets[1] = back + in_step - scan[kPtBlock - 1];
  }
}

__global__ void pt_finish(const int* offsets, int* count) { *count = offsets[0]; }

}  // namespace

int pt_run(const int* d_in, int n, int* d_out, int* d_count) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  int* offsets = nullptr;
  cudaError_t err = cudaMalloc(&offsets, 2 * sizeof(int));
  if (err != cudaSuccess) return -static_cast<int>(err);
  cudaMemset(offsets, 0, 2 * sizeof(int));
  const int steps = (n + kPtBlock - 1) / kPtBlock;
  for (int s = 0; s < steps; ++s) pt_step_flat<<<1, kPtBlock>>>(d_in, d_out, offsets, n, s);
  pt_finish<<<1, 1>>>(offsets, d_count);
  err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaGetLastError();
  cudaFree(offsets);
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

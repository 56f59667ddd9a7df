// Padding in place, naive CUDA dynamic parallelism: one single-block kernel
// per row, from the last row to the first; the block reads its row into shared
// memory, then writes it at the padded stride (the row's new place overlaps
// its old one and the old places of the rows after it, which have moved
// already). Thread 0 relaunches the kernel for the row before, once the block
// has read its row: the next row's new place overlaps this row's old one.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kPdThreads = 256;

__device__ unsigned int pd_failed_launches;

__global__ void pd_step(int* matrix, int rows, int step) {
  __shared__ int row[kPdCols];
  const int r = rows - 1 - step;
  for (int c = threadIdx.x; c < kPdCols; c += kPdThreads) row[c] = matrix[r * kPdCols + c];
  __syncthreads();
  for (int c = threadIdx.x; c < kPdCols; c += kPdThreads) matrix[r * (kPdCols + kPdPad) + c] = row[c];
  if (threadIdx.x == 0 && step + 1 < rows) {
    pd_step<<<1, kPdThreads>>>(matrix, rows, step + 1);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&pd_failed_launches, 1u);
  }
}

}  // namespace

int pd_run(int* d_matrix, int rows) {
  if (rows <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(pd_failed_launches, &zero, sizeof zero);
  pd_step<<<1, kPdThreads>>>(d_matrix, rows, 0);
  cudaMemcpyFromSymbol(&failed, pd_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

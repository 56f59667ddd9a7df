// Unpadding in place, naive CUDA dynamic parallelism: one single-block kernel
// per row, from the first row to the last; the block reads its row into shared
// memory, then writes it at the unpadded stride (the row's new place overlaps
// its old one and the old places of the rows before it, which have moved
// already). Thread 0 relaunches the kernel for the next row, once the block
// has read its row: the next row's new place overlaps this row's old one.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kUpdThreads = 256;

__device__ unsigned int upd_failed_launches;

__global__ void upd_step(int* matrix, int rows, int r) {
  __shared__ int row[kPdCols];
  for (int c = threadIdx.x; c < kPdCols; c += kUpdThreads) row[c] = matrix[r * (kPdCols + kPdPad) + c];
  __syncthreads();
  for (int c = threadIdx.x; c < kPdCols; c += kUpdThreads) matrix[r * kPdCols + c] = row[c];
  if (threadIdx.x == 0 && r + 1 < rows) {
    upd_step<<<1, kUpdThreads>>>(matrix, rows, r + 1);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&upd_failed_launches, 1u);
  }
}

}  // namespace

int upd_run(int* d_matrix, int rows) {
  if (rows <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(upd_failed_launches, &zero, sizeof zero);
  upd_step<<<1, kUpdThreads>>>(d_matrix, rows, 0);
  cudaMemcpyFromSymbol(&failed, upd_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

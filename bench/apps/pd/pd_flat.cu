// Padding in place, iterative: the host launches one single-block kernel per
// row, from the last row to the first.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kPdThreads = 256;

__global__ void pd_step_flat(int* matrix, int r) {
  __shared__ int row[kPdCols];
  for (int c = threadIdx.x; c < kPdCols; c += kPdThreads) row[c] = matrix[r * kPdCols + c];
  __syncthreads();
  for (int c = threadIdx.x; c < kPdCols; c += kPdThreads) matrix[r * (kPdCols + kPdPad) + c] = row[c];
}

}  // namespace

int pd_run(int* d_matrix, int rows) {
  if (rows <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  for (int r = rows - 1; r >= 0; --r) pd_step_flat<<<1, kPdThreads>>>(d_matrix, r);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

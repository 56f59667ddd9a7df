// Unpadding in place, iterative: the host launches one single-block kernel per
// row, from the first row to the last.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kUpdThreads = 256;

__global__ void upd_step_flat(int* matrix, int r) {
  __shared__ int row[kPdCols];
  for (int c = threadIdx.x; c < kPdCols; c += kUpdThreads) row[c] = matrix[r * (kPdCols + kPdPad) + c];
  __syncthreads();
  for (int c = threadIdx.x; c < kPdCols; c += kUpdThreads) matrix[r * kPdCols + c] = row[c];
}

}  // namespace

int upd_run(int* d_matrix, int rows) {
  if (rows <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  for (int r = 0; r < rows; ++r) upd_step_flat<<<1, kUpdThreads>>>(d_matrix, r);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

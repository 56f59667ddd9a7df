// SpMV (CSR) without dynamic parallelism: one thread per row loops over the
// row's non-zeros (scalar CSR).
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 256;

__global__ void spmv_rows(GraphDev a, const float* x, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= a.num_nodes) return;
  float sum = 0.0f;
  for (int e = a.row_offsets[r]; e < a.row_offsets[r + 1]; ++e) sum += a.values[e] * x[a.col_indices[e]];
  y[r] = sum;
}

}  // namespace

int spmv_run(const GraphDev& a, const float* d_x, float* d_y) {
  spmv_rows<<<(a.num_nodes + kBlock - 1) / kBlock, kBlock>>>(a, d_x, d_y);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

// SpMV (CSR), written by a GPU expert: vector CSR with a power-of-two group of
// lanes per row chosen from the mean row length (as CUSP/cuSPARSE heuristics
// do), shuffle reductions, and rows longer than a threshold handed to whole
// blocks (collected by the vector kernel) so that power-law hubs do not
// serialise one warp.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 256;
constexpr int kLongRow = 4096;

template <int kLanes>
__global__ void spmv_vector(GraphDev a, const float* __restrict__ x, float* __restrict__ y, int* long_rows,
                            int* num_long_rows) {
  constexpr int kRowsPerWarp = 32 / kLanes;
  const int lane = threadIdx.x % kLanes;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int warps = gridDim.x * blockDim.x / 32;
  // The loop bound is uniform across the warp so every lane reaches the shuffles.
  for (int first = warp * kRowsPerWarp; first < a.num_nodes; first += warps * kRowsPerWarp) {
    const int r = first + (threadIdx.x % 32) / kLanes;
    int begin = 0, end = 0;
    if (r < a.num_nodes) {
      begin = a.row_offsets[r];
      end = a.row_offsets[r + 1];
    }
    const bool mine = r < a.num_nodes && end - begin <= kLongRow;  // long rows: spmv_long_rows
    float sum = 0.0f;
    if (mine)
      for (int e = begin + lane; e < end; e += kLanes) sum += __ldg(&a.values[e]) * __ldg(&x[__ldg(&a.col_indices[e])]);
#pragma unroll
    for (int off = kLanes / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off, kLanes);
    if (mine && lane == 0) y[r] = sum;
    if (r < a.num_nodes && !mine && lane == 0) long_rows[atomicAdd(num_long_rows, 1)] = r;
  }
}

__global__ void spmv_long_rows(GraphDev a, const float* __restrict__ x, float* __restrict__ y, const int* long_rows,
                               const int* num_long_rows) {
  __shared__ float partial[kBlock / 32];
  for (int i = blockIdx.x; i < *num_long_rows; i += gridDim.x) {
    const int r = long_rows[i];
    const int begin = a.row_offsets[r], end = a.row_offsets[r + 1];
    float sum = 0.0f;
    for (int e = begin + threadIdx.x; e < end; e += blockDim.x) sum += a.values[e] * x[a.col_indices[e]];
    for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
      sum = threadIdx.x < kBlock / 32 ? partial[threadIdx.x] : 0.0f;
      for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
      if (threadIdx.x == 0) y[r] = sum;
    }
    __syncthreads();
  }
}

}  // namespace

int spmv_run(const GraphDev& a, const float* d_x, float* d_y) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const double mean = a.num_nodes ? static_cast<double>(a.num_edges) / a.num_nodes : 0.0;
  const int grid = sms * 16;
  int* long_rows = nullptr;  // rows over kLongRow non-zeros, found by the vector kernel
  cudaMalloc(&long_rows, sizeof(int) * (a.num_edges / kLongRow + 2));
  int* num_long_rows = long_rows + a.num_edges / kLongRow + 1;
  cudaMemsetAsync(num_long_rows, 0, sizeof(int));
  if (mean <= 2) spmv_vector<2><<<grid, kBlock>>>(a, d_x, d_y, long_rows, num_long_rows);
  else if (mean <= 4) spmv_vector<4><<<grid, kBlock>>>(a, d_x, d_y, long_rows, num_long_rows);
  else if (mean <= 8) spmv_vector<8><<<grid, kBlock>>>(a, d_x, d_y, long_rows, num_long_rows);
  else if (mean <= 16) spmv_vector<16><<<grid, kBlock>>>(a, d_x, d_y, long_rows, num_long_rows);
  else spmv_vector<32><<<grid, kBlock>>>(a, d_x, d_y, long_rows, num_long_rows);
  spmv_long_rows<<<sms * 4, kBlock>>>(a, d_x, d_y, long_rows, num_long_rows);
  cudaFree(long_rows);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

// launchopt: each block of a coarsened child runs LAUNCHOPT_CFACTOR
// original blocks. Override with -DLAUNCHOPT_CFACTOR=<blocks>.
#ifndef LAUNCHOPT_CFACTOR
#define LAUNCHOPT_CFACTOR 4
#endif

// SpMV (CSR), naive CUDA dynamic parallelism: one parent thread per row
// launches a child grid with one thread per non-zero of the row; each child
// thread adds its product into y[row] atomically.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
// On the H100 the pool stopped accepting launches near 550k pending children
// even with a larger limit set, so a parent grid covers at most kMaxPending
// items and the host issues several when the work list is longer.
constexpr int kMaxPending = 1 << 18;

__device__ unsigned int spmv_failed_launches;

__global__ void spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin,
                                  int edge_end, float* y_row) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edge_end) atomicAdd(y_row, values[e] * x[col_indices[e]]);
}

// launchopt: 'spmv_row_products' coarsened: each block runs the original blocks
// blockIdx, blockIdx + gridDim, ... of the original grid; in the loop, locals shadow
// blockIdx and gridDim with the original block's values.
__global__ void __lo_coarse_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const dim3 __lo_originalGrid)
{
  for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
    for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
      for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x) {
        { // one original block
          const uint3 blockIdx = make_uint3(__lo_bx, __lo_by, __lo_bz);
          const dim3 gridDim = __lo_originalGrid;
          (void)blockIdx; (void)gridDim;
          {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edge_end) atomicAdd(y_row, values[e] * x[col_indices[e]]);
}
        }
      }
}

__global__ void spmv_rows(GraphDev a, int first_row, const float* x, float* y) {
  int r = first_row + blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= a.num_nodes) return;
  int begin = a.row_offsets[r], end = a.row_offsets[r + 1];
  y[r] = 0.0f;
  if (end == begin) return;
  { // launchopt: coarsened launch of 'spmv_row_products'
    const dim3 __lo_cgrid1 = (end - begin + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
    __lo_coarse_spmv_row_products<<<__lo_coarse1, kChildBlock>>>(a.col_indices, a.values, x,
                                                                                     begin, end, &y[r], __lo_cgrid1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&spmv_failed_launches, 1u);
}

}  // namespace

// Entry: parent grids over the rows, kMaxPending rows each.
int spmv_run(const GraphDev& a, const float* d_x, float* d_y) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(a.num_nodes < kMaxPending ? a.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(spmv_failed_launches, &zero, sizeof zero);
  for (int first = 0; first < a.num_nodes; first += kMaxPending) {
    int count = a.num_nodes - first < kMaxPending ? a.num_nodes - first : kMaxPending;
    spmv_rows<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(a, first, d_x, d_y);
  }
  cudaMemcpyFromSymbol(&failed, spmv_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

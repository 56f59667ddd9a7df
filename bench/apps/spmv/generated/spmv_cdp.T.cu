// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread,
// their threads shared by the lanes of its warp that run theirs at the
// same time. Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
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

// launchopt: one thread of 'spmv_row_products', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_thread_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edge_end) atomicAdd(y_row, values[e] * x[col_indices[e]]);
}
}

// launchopt: whether the guard of 'spmv_row_products' ends this thread and every later one in x:
// !(e < edge_end)
static __device__ bool __lo_thread_exit_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  (void)e;
  return !(e < edge_end);
}

// launchopt: every thread of a 'spmv_row_products' grid, one after another (serial version).
static __device__ void __lo_serial_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_spmv_row_products(col_indices, values, x, edge_begin, edge_end, y_row, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_spmv_row_products(col_indices, values, x, edge_begin, edge_end, y_row, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void spmv_rows(GraphDev a, int first_row, const float* x, float* y) {
  int r = first_row + blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= a.num_nodes) return;
  int begin = a.row_offsets[r], end = a.row_offsets[r + 1];
  y[r] = 0.0f;
  if (end == begin) return;
  { // launchopt: thresholded launch of 'spmv_row_products'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      spmv_row_products<<<__lo_grid1, __lo_block1>>>(a.col_indices, a.values, x,
                                                                                     begin, end, &y[r]);
    else
      __lo_serial_spmv_row_products(a.col_indices, a.values, x,
                                                                                     begin, end, &y[r], __lo_grid1, __lo_block1);
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

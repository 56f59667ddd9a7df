// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run serially in the
// parent thread. Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
#endif

// Triangle counting, naive CUDA dynamic parallelism: a parent thread per
// vertex u launches a child grid with a thread per neighbour v > u; the child
// thread intersects the sorted lists N(u) and N(v) above v, so every triangle
// u < v < w is counted once.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
constexpr int kMaxPending = 1 << 18;  // see bfs_cdp.cu: parent grids are chunked to the pending-launch pool

__device__ unsigned int tc_failed_launches;

__global__ void tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int v = g.col_indices[e];
  if (v <= u) return;
  int i = e + 1, j = g.row_offsets[v];
  const int ie = edge_end, je = g.row_offsets[v + 1];
  while (j < je && g.col_indices[j] <= v) ++j;
  unsigned long long c = 0;
  while (i < ie && j < je) {
    int a = g.col_indices[i], b = g.col_indices[j];
    c += a == b;
    i += a <= b;
    j += b <= a;
  }
  if (c) atomicAdd(count, c);
}

// launchopt: one thread of 'tc_intersect', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_thread_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int v = g.col_indices[e];
  if (v <= u) return;
  int i = e + 1, j = g.row_offsets[v];
  const int ie = edge_end, je = g.row_offsets[v + 1];
  while (j < je && g.col_indices[j] <= v) ++j;
  unsigned long long c = 0;
  while (i < ie && j < je) {
    int a = g.col_indices[i], b = g.col_indices[j];
    c += a == b;
    i += a <= b;
    j += b <= a;
  }
  if (c) atomicAdd(count, c);
}
}

// launchopt: whether the guard of 'tc_intersect' ends this thread and every later one in x:
// (e >= edge_end)
static __device__ bool __lo_thread_exit_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  (void)e;
  return (e >= edge_end);
}

// launchopt: every thread of a 'tc_intersect' grid, one after another (serial version).
static __device__ void __lo_serial_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_tc_intersect(g, u, edge_begin, edge_end, count, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_tc_intersect(g, u, edge_begin, edge_end, count, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void tc_vertices(GraphDev g, int first, unsigned long long* count) {
  int u = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= g.num_nodes) return;
  int begin = g.row_offsets[u], end = g.row_offsets[u + 1];
  if (end - begin < 2) return;
  { // launchopt: thresholded launch of 'tc_intersect'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      tc_intersect<<<__lo_grid1, __lo_block1>>>(g, u, begin, end, count);
    else
      __lo_serial_tc_intersect(g, u, begin, end, count, __lo_grid1, __lo_block1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&tc_failed_launches, 1u);
}

}  // namespace

int tc_run(const GraphDev& g, unsigned long long* d_count) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(g.num_nodes < kMaxPending ? g.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(tc_failed_launches, &zero, sizeof zero);
  cudaMemsetAsync(d_count, 0, sizeof(unsigned long long));
  for (int first = 0; first < g.num_nodes; first += kMaxPending) {
    int count = g.num_nodes - first < kMaxPending ? g.num_nodes - first : kMaxPending;
    tc_vertices<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(g, first, d_count);
  }
  cudaMemcpyFromSymbol(&failed, tc_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// (the report's serial-pooling says where the lanes of a warp share their
// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
#endif

// BFS, naive CUDA dynamic parallelism: level-synchronous; the host iterates
// levels and every frontier vertex's thread launches a child grid with one
// thread per neighbour (KLAP's bfs: "the loop over the edges of a node is
// converted to a kernel launch with one thread processing each edge").
#include <cstdio>
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 64;
// On the H100 the pool stopped accepting launches near 550k pending children
// even with a larger limit set, so a parent grid covers at most kMaxPending
// items and the host issues several when the work list is longer.
constexpr int kMaxPending = 1 << 18;

__device__ unsigned int bfs_failed_launches;

__global__ void bfs_visit_neighbors(const int* col_indices, int edge_begin, int edge_end, int next_level,
                                    int* levels, int* next_frontier, int* next_size) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int u = col_indices[e];
  if (atomicCAS(&levels[u], -1, next_level) == -1) next_frontier[atomicAdd(next_size, 1)] = u;
}

// launchopt: one thread of 'bfs_visit_neighbors', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_thread_bfs_visit_neighbors(const int* col_indices, int edge_begin, int edge_end, int next_level, int* levels, int* next_frontier, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
  int u = col_indices[e];
  if (atomicCAS(&levels[u], -1, next_level) == -1) next_frontier[atomicAdd(next_size, 1)] = u;
}
}

// launchopt: whether the guard of 'bfs_visit_neighbors' ends this thread and every later one in x:
// (e >= edge_end)
static __device__ bool __lo_thread_exit_bfs_visit_neighbors(const int* col_indices, int edge_begin, int edge_end, int next_level, int* levels, int* next_frontier, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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

// launchopt: every thread of a 'bfs_visit_neighbors' grid, one after another (serial version).
static __device__ void __lo_serial_bfs_visit_neighbors(const int* col_indices, int edge_begin, int edge_end, int next_level, int* levels, int* next_frontier, int* next_size, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_bfs_visit_neighbors(col_indices, edge_begin, edge_end, next_level, levels, next_frontier, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_bfs_visit_neighbors(col_indices, edge_begin, edge_end, next_level, levels, next_frontier, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void bfs_expand_frontier(GraphDev g, const int* frontier, int first, int frontier_size, int next_level,
                                    int* levels, int* next_frontier, int* next_size) {
  int i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_size) return;
  int v = frontier[i];
  int begin = g.row_offsets[v], end = g.row_offsets[v + 1];
  if (end == begin) return;
  { // launchopt: thresholded launch of 'bfs_visit_neighbors'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      bfs_visit_neighbors<<<__lo_grid1, __lo_block1>>>(g.col_indices, begin, end, next_level, levels, next_frontier, next_size);
    else
      __lo_serial_bfs_visit_neighbors(g.col_indices, begin, end, next_level, levels, next_frontier, next_size, __lo_grid1, __lo_block1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&bfs_failed_launches, 1u);
}

__global__ void bfs_init(int* levels, int n, int source, int* frontier) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) levels[v] = v == source ? 0 : -1;
  if (v == 0) frontier[0] = source;
}

}  // namespace

// Entry: host loop over levels; one parent grid per level.
int bfs_run(const GraphDev& g, int source, int* d_levels) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(g.num_nodes < kMaxPending ? g.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  int *frontier = nullptr, *next = nullptr, *next_size = nullptr;
  cudaMalloc(&frontier, sizeof(int) * g.num_nodes);
  cudaMalloc(&next, sizeof(int) * g.num_nodes);
  cudaMalloc(&next_size, sizeof(int));
  unsigned int zero = 0;
  cudaMemcpyToSymbol(bfs_failed_launches, &zero, sizeof zero);
  bfs_init<<<(g.num_nodes + 255) / 256, 256>>>(d_levels, g.num_nodes, source, frontier);
  int frontier_size = 1;
  for (int level = 0; frontier_size > 0; ++level) {
    cudaMemsetAsync(next_size, 0, sizeof(int));
    for (int first = 0; first < frontier_size; first += kMaxPending) {
      int count = frontier_size - first < kMaxPending ? frontier_size - first : kMaxPending;
      bfs_expand_frontier<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(
          g, frontier, first, frontier_size, level + 1, d_levels, next, next_size);
    }
    cudaMemcpy(&frontier_size, next_size, sizeof(int), cudaMemcpyDeviceToHost);
#ifdef BFS_LEVEL_COUNTERS
    // A spawn output built with -DLAUNCHOPT_COUNTERS: the controller's counts
    // after each level (bench/scripts/spawn-decisions.sh plots them).
    std::printf("# level %d next-frontier %d\n", level, frontier_size);
    launchopt_print_counters();
#endif
    int* t = frontier;
    frontier = next;
    next = t;
  }
  unsigned int failed = 0;
  cudaMemcpyFromSymbol(&failed, bfs_failed_launches, sizeof failed);
  cudaFree(frontier);
  cudaFree(next);
  cudaFree(next_size);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

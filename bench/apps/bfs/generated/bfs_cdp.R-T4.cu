// launchopt: the configuration check of removed launches.
// ---- launchopt runtime: launchopt/removal_guard.cuh ----
// launchopt device runtime: whether a removed launch would have started.
//
// A launch whose configuration the device refuses fails, and its child never
// runs; the code that replaces a removed launch asks this first, so that it
// runs the child exactly when the launch would have. Self-contained: outputs
// of T4 use nothing else of the runtime.

#include <cuda_runtime.h>

namespace launchopt {
namespace removal {

// Whether a launch with this configuration would start: an empty grid, or a
// grid or block over the limits of compute capability 9.0 (a wrapped count
// gives one), makes it fail, and then its child never runs.
static __device__ inline bool launchable(const dim3 &grid, const dim3 &block) {
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  return grid.x >= 1 && grid.x <= 0x7fffffffu && grid.y >= 1 && grid.y <= 65535u && grid.z >= 1 &&
         grid.z <= 65535u && block.x >= 1 && block.x <= 1024u && block.y >= 1 &&
         block.y <= 1024u && block.z >= 1 && block.z <= 64u && threads <= 1024u;
}

} // namespace removal
} // namespace launchopt
// ---- end of launchopt/removal_guard.cuh ----

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
static __device__ void __lo_ithread_bfs_visit_neighbors(const int* col_indices, int edge_begin, int edge_end, int next_level, int* levels, int* next_frontier, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ bool __lo_ithread_exit_bfs_visit_neighbors(const int* col_indices, int edge_begin, int edge_end, int next_level, int* levels, int* next_frontier, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ void __lo_inline_bfs_visit_neighbors(const int* col_indices, int edge_begin, int edge_end, int next_level, int* levels, int* next_frontier, int* next_size, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_ithread_exit_bfs_visit_neighbors(col_indices, edge_begin, edge_end, next_level, levels, next_frontier, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_ithread_bfs_visit_neighbors(col_indices, edge_begin, edge_end, next_level, levels, next_frontier, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
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
  { // launchopt: launch of 'bfs_visit_neighbors' removed (T4): this thread runs the child grid
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
#ifdef __CUDACC_RDC__
    } else if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x)) {
      // not the ceiling of its count (a wrapped count): launched as written
      bfs_visit_neighbors<<<__lo_grid1, __lo_block1>>>(g.col_indices, begin, end, next_level, levels, next_frontier, next_size);
#endif
    } else {
      __lo_inline_bfs_visit_neighbors(g.col_indices, begin, end, next_level, levels, next_frontier, next_size, __lo_grid1, __lo_block1);
    }
  }
  if (cudaSuccess != cudaSuccess) atomicAdd(&bfs_failed_launches, 1u);
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

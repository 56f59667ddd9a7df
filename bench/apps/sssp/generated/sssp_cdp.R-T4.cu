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

// SSSP, naive CUDA dynamic parallelism: worklist Bellman-Ford. The host
// iterates rounds; each worklist vertex's thread launches a child grid that
// relaxes its out-edges, one thread per edge (LonestarGPU-style sssp as in KLAP).
#include <climits>
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 64;
// On the H100 the pool stopped accepting launches near 550k pending children
// even with a larger limit set, so a parent grid covers at most kMaxPending
// items and the host issues several when the work list is longer.
constexpr int kMaxPending = 1 << 18;

__device__ unsigned int sssp_failed_launches;

__global__ void sssp_relax_edges(const int* col_indices, const int* weights, int v, int edge_begin, int edge_end,
                                 int round, int* dist, int* stamp, int* next_work, int* next_size) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int u = col_indices[e];
  int nd = dist[v] + weights[e];
  if (nd < dist[u] && atomicMin(&dist[u], nd) > nd && atomicExch(&stamp[u], round) != round)
    next_work[atomicAdd(next_size, 1)] = u;
}

// launchopt: one thread of 'sssp_relax_edges', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_ithread_sssp_relax_edges(const int* col_indices, const int* weights, int v, int edge_begin, int edge_end, int round, int* dist, int* stamp, int* next_work, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
  int nd = dist[v] + weights[e];
  if (nd < dist[u] && atomicMin(&dist[u], nd) > nd && atomicExch(&stamp[u], round) != round)
    next_work[atomicAdd(next_size, 1)] = u;
}
}

// launchopt: whether the guard of 'sssp_relax_edges' ends this thread and every later one in x:
// (e >= edge_end)
static __device__ bool __lo_ithread_exit_sssp_relax_edges(const int* col_indices, const int* weights, int v, int edge_begin, int edge_end, int round, int* dist, int* stamp, int* next_work, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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

// launchopt: every thread of a 'sssp_relax_edges' grid, one after another (serial version).
static __device__ void __lo_inline_sssp_relax_edges(const int* col_indices, const int* weights, int v, int edge_begin, int edge_end, int round, int* dist, int* stamp, int* next_work, int* next_size, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_ithread_exit_sssp_relax_edges(col_indices, weights, v, edge_begin, edge_end, round, dist, stamp, next_work, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_ithread_sssp_relax_edges(col_indices, weights, v, edge_begin, edge_end, round, dist, stamp, next_work, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void sssp_process_worklist(GraphDev g, const int* work, int first, int work_size, int round, int* dist,
                                      int* stamp,
                                      int* next_work, int* next_size) {
  int i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= work_size) return;
  int v = work[i];
  int begin = g.row_offsets[v], end = g.row_offsets[v + 1];
  if (end == begin) return;
  { // launchopt: launch of 'sssp_relax_edges' removed (T4): this thread runs the child grid
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
#ifdef __CUDACC_RDC__
    } else if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x)) {
      // not the ceiling of its count (a wrapped count): launched as written
      sssp_relax_edges<<<__lo_grid1, __lo_block1>>>(g.col_indices, g.weights, v, begin, end, round, dist, stamp, next_work, next_size);
#endif
    } else {
      __lo_inline_sssp_relax_edges(g.col_indices, g.weights, v, begin, end, round, dist, stamp, next_work, next_size, __lo_grid1, __lo_block1);
    }
  }
  if (cudaSuccess != cudaSuccess) atomicAdd(&sssp_failed_launches, 1u);
}

__global__ void sssp_init(int* dist, int* stamp, int n, int source, int* work) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    dist[v] = v == source ? 0 : INT_MAX;
    stamp[v] = -1;
  }
  if (v == 0) work[0] = source;
}

}  // namespace

// Entry: host loop over Bellman-Ford rounds until the worklist is empty.
int sssp_run(const GraphDev& g, int source, int* d_dist) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(g.num_nodes < kMaxPending ? g.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  int *work = nullptr, *next = nullptr, *next_size = nullptr, *stamp = nullptr;
  cudaMalloc(&work, sizeof(int) * g.num_nodes);
  cudaMalloc(&next, sizeof(int) * g.num_nodes);
  cudaMalloc(&stamp, sizeof(int) * g.num_nodes);
  cudaMalloc(&next_size, sizeof(int));
  unsigned int zero = 0;
  cudaMemcpyToSymbol(sssp_failed_launches, &zero, sizeof zero);
  sssp_init<<<(g.num_nodes + 255) / 256, 256>>>(d_dist, stamp, g.num_nodes, source, work);
  int work_size = 1;
  for (int round = 0; work_size > 0; ++round) {
    cudaMemsetAsync(next_size, 0, sizeof(int));
    for (int first = 0; first < work_size; first += kMaxPending) {
      int count = work_size - first < kMaxPending ? work_size - first : kMaxPending;
      sssp_process_worklist<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(
          g, work, first, work_size, round, d_dist, stamp, next, next_size);
    }
    cudaMemcpy(&work_size, next_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = work;
    work = next;
    next = t;
  }
  unsigned int failed = 0;
  cudaMemcpyFromSymbol(&failed, sssp_failed_launches, sizeof failed);
  cudaFree(work);
  cudaFree(next);
  cudaFree(stamp);
  cudaFree(next_size);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

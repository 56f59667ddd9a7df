// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// (the report's serial-pooling says where the lanes of a warp share their
// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
#endif

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
static __device__ void __lo_thread_sssp_relax_edges(const int* col_indices, const int* weights, int v, int edge_begin, int edge_end, int round, int* dist, int* stamp, int* next_work, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ bool __lo_thread_exit_sssp_relax_edges(const int* col_indices, const int* weights, int v, int edge_begin, int edge_end, int round, int* dist, int* stamp, int* next_work, int* next_size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ void __lo_serial_sssp_relax_edges(const int* col_indices, const int* weights, int v, int edge_begin, int edge_end, int round, int* dist, int* stamp, int* next_work, int* next_size, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_sssp_relax_edges(col_indices, weights, v, edge_begin, edge_end, round, dist, stamp, next_work, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_sssp_relax_edges(col_indices, weights, v, edge_begin, edge_end, round, dist, stamp, next_work, next_size, make_uint3(__lo_bx, __lo_by, __lo_bz),
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
  { // launchopt: thresholded launch of 'sssp_relax_edges'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      sssp_relax_edges<<<__lo_grid1, __lo_block1>>>(g.col_indices, g.weights, v, begin, end, round, dist, stamp, next_work, next_size);
    else
      __lo_serial_sssp_relax_edges(g.col_indices, g.weights, v, begin, end, round, dist, stamp, next_work, next_size, __lo_grid1, __lo_block1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&sssp_failed_launches, 1u);
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

// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// (the report's serial-pooling says where the lanes of a warp share their
// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
#endif

// Graph colouring (Jones–Plassmann), naive CUDA dynamic parallelism. Each
// round, the parent thread of every uncoloured vertex v launches a child grid
// over v's neighbours that detects a conflict (an uncoloured neighbour with
// higher priority) and clears v's candidacy; the host then colours the
// surviving candidates with the round number and iterates until none is left.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
constexpr int kMaxPending = 1 << 18;  // see bfs_cdp.cu: parent grids are chunked to the pending-launch pool

__device__ unsigned int gc_failed_launches;

__global__ void gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors,
                                    int* candidate) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int u = col_indices[e];
  if (colors[u] < 0 && gc_beats(u, v)) candidate[v] = 0;
}

// launchopt: one thread of 'gc_detect_conflicts', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_thread_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
  if (colors[u] < 0 && gc_beats(u, v)) candidate[v] = 0;
}
}

// launchopt: whether the guard of 'gc_detect_conflicts' ends this thread and every later one in x:
// (e >= edge_end)
static __device__ bool __lo_thread_exit_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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

// launchopt: every thread of a 'gc_detect_conflicts' grid, one after another (serial version).
static __device__ void __lo_serial_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void gc_select(GraphDev g, int first, const int* colors, int* candidate) {
  int v = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.num_nodes || colors[v] >= 0) return;
  candidate[v] = 1;
  int begin = g.row_offsets[v], end = g.row_offsets[v + 1];
  if (end == begin) return;
  { // launchopt: thresholded launch of 'gc_detect_conflicts'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      gc_detect_conflicts<<<__lo_grid1, __lo_block1>>>(g.col_indices, v, begin, end,
                                                                                       colors, candidate);
    else
      __lo_serial_gc_detect_conflicts(g.col_indices, v, begin, end,
                                                                                       colors, candidate, __lo_grid1, __lo_block1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&gc_failed_launches, 1u);
}

__global__ void gc_assign(int n, int round, const int* candidate, int* colors, int* colored) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && colors[v] < 0 && candidate[v]) {
    colors[v] = round;
    atomicAdd(colored, 1);
  }
}

__global__ void gc_init(int n, int* colors) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) colors[v] = -1;
}

}  // namespace

int gc_run(const GraphDev& g, int* d_colors) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(g.num_nodes < kMaxPending ? g.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(gc_failed_launches, &zero, sizeof zero);
  int *candidate = nullptr, *colored = nullptr;
  cudaMalloc(&candidate, sizeof(int) * g.num_nodes);
  cudaMalloc(&colored, sizeof(int));
  cudaMemsetAsync(colored, 0, sizeof(int));
  const int blocks = (g.num_nodes + kParentBlock - 1) / kParentBlock;
  gc_init<<<blocks, kParentBlock>>>(g.num_nodes, d_colors);
  int done = 0, last = -1;
  for (int round = 0; done < g.num_nodes && done != last; ++round) {
    for (int first = 0; first < g.num_nodes; first += kMaxPending) {
      int count = g.num_nodes - first < kMaxPending ? g.num_nodes - first : kMaxPending;
      gc_select<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(g, first, d_colors, candidate);
    }
    gc_assign<<<blocks, kParentBlock>>>(g.num_nodes, round, candidate, d_colors, colored);
    last = done;
    cudaMemcpy(&done, colored, sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaMemcpyFromSymbol(&failed, gc_failed_launches, sizeof failed);
  cudaFree(candidate);
  cudaFree(colored);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

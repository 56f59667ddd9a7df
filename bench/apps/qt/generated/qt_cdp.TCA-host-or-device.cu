// Quadtree construction, naive CUDA dynamic parallelism (after the CUDA
// quadtree sample used by KLAP): a block per node. The block splits its
// node's point ids into the four quadrants around the node's centre (written
// to the other of two id buffers, same range), then thread 0 launches a child
// grid of four blocks, one per quadrant. A node with at most min_points points
// or at depth max_depth is a leaf: its block writes the leaf key of each of
// its points. Nothing waits on a child (CDP2): the entry's synchronous copy of
// the failure counter returns after the root grid and all its descendants.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 128;
constexpr int kMaxDepthGuard = 30;
constexpr size_t kPendingCap = (static_cast<size_t>(1) << 19) + 1024;  // leaf keys: a leading 1 and two bits per level in 64 bits

struct QtNode {
  int begin, end;  // range of point ids in the buffer of the node's depth
  float x0, y0, x1, y1;
  unsigned long long key;
};
struct QtQuad {
  QtNode child[4];  // block b of a grid builds child[b]
};

__device__ unsigned int qt_failed_launches;

// Splits ids src[begin, end) into quadrants in dst[begin, end); off[0..4] = quadrant ranges.
__device__ void qt_partition(const float* x, const float* y, const int* src, int* dst, int begin, int end, float mx,
                             float my, int* off) {
  __shared__ int count[4], cursor[4];
  const int lane = threadIdx.x & 31;
  const unsigned lt = (1u << lane) - 1u;
  if (threadIdx.x < 4) count[threadIdx.x] = 0;
  __syncthreads();
  for (int base = begin; base < end; base += kBlock) {
    int i = base + threadIdx.x, q = -1;
    if (i < end) {
      int p = src[i];
      q = qt_quadrant(x[p], y[p], mx, my);
    }
    for (int k = 0; k < 4; ++k) {
      unsigned m = __ballot_sync(0xffffffffu, q == k);
      if (lane == 0 && m) atomicAdd(&count[k], __popc(m));
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    off[0] = begin;
    for (int k = 0; k < 4; ++k) {
      cursor[k] = off[k];
      off[k + 1] = off[k] + count[k];
    }
  }
  __syncthreads();
  for (int base = begin; base < end; base += kBlock) {
    int i = base + threadIdx.x, q = -1, p = 0;
    if (i < end) {
      p = src[i];
      q = qt_quadrant(x[p], y[p], mx, my);
    }
    for (int k = 0; k < 4; ++k) {
      unsigned m = __ballot_sync(0xffffffffu, q == k);
      if (!m) continue;
      int leader = __ffs(m) - 1, pos = 0;
      if (lane == leader) pos = atomicAdd(&cursor[k], __popc(m));
      pos = __shfl_sync(0xffffffffu, pos, leader);
      if (q == k) dst[pos + __popc(m & lt)] = p;
    }
  }
  __syncthreads();
}

__global__ void __launch_bounds__(kBlock) qt_build(QtQuad nodes, int depth, const float* x, const float* y,
                                                   int* ids_even, int* ids_odd, int max_depth, int min_points,
                                                   unsigned long long* keys) {
  const QtNode n = nodes.child[blockIdx.x];
  if (n.end <= n.begin) return;  // empty quadrant
  const int* src = (depth & 1) ? ids_odd : ids_even;
  int* dst = (depth & 1) ? ids_even : ids_odd;
  if (n.end - n.begin <= min_points || depth >= max_depth) {
    for (int i = n.begin + threadIdx.x; i < n.end; i += kBlock) keys[src[i]] = n.key;
    return;
  }
  const float mx = 0.5f * (n.x0 + n.x1), my = 0.5f * (n.y0 + n.y1);
  __shared__ int off[5];
  qt_partition(x, y, src, dst, n.begin, n.end, mx, my, off);
  if (threadIdx.x == 0) {
    QtQuad c;
    for (int q = 0; q < 4; ++q) {
      c.child[q].begin = off[q];
      c.child[q].end = off[q + 1];
      c.child[q].x0 = (q & 1) ? mx : n.x0;
      c.child[q].x1 = (q & 1) ? n.x1 : mx;
      c.child[q].y0 = (q & 2) ? my : n.y0;
      c.child[q].y1 = (q & 2) ? n.y1 : my;
      c.child[q].key = n.key << 2 | static_cast<unsigned long long>(q);
    }
    qt_build<<<4, kBlock>>>(c, depth + 1, x, y, ids_even, ids_odd, max_depth, min_points, keys);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&qt_failed_launches, 1u);
  }
}

__global__ void qt_iota(int* ids, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ids[i] = i;
}

// Id buffers kept between calls (grown when needed).
int* g_ids = nullptr;
int g_ids_size = 0;

}  // namespace

int qt_run(const float* d_x, const float* d_y, int num_points, int max_depth, int min_points,
           unsigned long long* d_leaf_keys) {
  if (num_points < 0 || max_depth < 0 || max_depth > kMaxDepthGuard || min_points < 0)
    return -static_cast<int>(cudaErrorInvalidValue);
  if (num_points == 0) return 0;
  // Non-leaf nodes: per level at most 4^d and at most num_points / (min_points + 1).
  size_t need = 1024, have = 0;
  for (int d = 0; d < max_depth; ++d) {
    size_t by_points = static_cast<size_t>(num_points) / (static_cast<size_t>(min_points) + 1);
    size_t by_level = d < 16 ? (static_cast<size_t>(1) << (2 * d)) : by_points;
    need += by_level < by_points ? by_level : by_points;
  }
  if (need > kPendingCap) need = kPendingCap;  // bound on all non-leaf nodes; far fewer are pending at once
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  if (g_ids_size < num_points) {
    cudaFree(g_ids);
    g_ids_size = 0;
    if (cudaMalloc(&g_ids, sizeof(int) * 2 * static_cast<size_t>(num_points)) != cudaSuccess)
      return -static_cast<int>(cudaGetLastError());
    g_ids_size = num_points;
  }
  int* ids_even = g_ids;
  int* ids_odd = g_ids + num_points;
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(qt_failed_launches, &zero, sizeof zero);
  qt_iota<<<(num_points + 255) / 256, 256>>>(ids_even, num_points);
  QtQuad root{};
  root.child[0] = QtNode{0, num_points, 0.f, 0.f, 1.f, 1.f, 1ull};
  qt_build<<<1, kBlock>>>(root, 0, d_x, d_y, ids_even, ids_odd, max_depth, min_points, d_leaf_keys);
  cudaMemcpyFromSymbol(&failed, qt_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

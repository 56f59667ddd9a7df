// Quadtree construction without dynamic parallelism: the same block per node
// and the same partition as the CDP version, but the tree is built level by
// level from the host. A non-leaf node's block appends its non-empty
// quadrants to the next level's node list instead of launching a child grid;
// the host launches one grid per level (a block per node of that level) until
// a level has no nodes.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 128;
constexpr int kMaxDepthGuard = 30;  // leaf keys: a leading 1 and two bits per level in 64 bits

struct QtNode {
  int begin, end;  // range of point ids in the buffer of the node's depth
  float x0, y0, x1, y1;
  unsigned long long key;
};

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

// One level: block b builds nodes[b]; non-empty quadrants of split nodes go to next[*next_count].
__global__ void __launch_bounds__(kBlock) qt_level(const QtNode* nodes, int depth, const float* x, const float* y,
                                                   int* ids_even, int* ids_odd, int max_depth, int min_points,
                                                   unsigned long long* keys, QtNode* next, int* next_count) {
  const QtNode n = nodes[blockIdx.x];
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
    int nonempty = 0;
    for (int q = 0; q < 4; ++q) nonempty += off[q + 1] > off[q];
    int pos = atomicAdd(next_count, nonempty);
    for (int q = 0; q < 4; ++q) {
      if (off[q + 1] == off[q]) continue;
      QtNode c;
      c.begin = off[q];
      c.end = off[q + 1];
      c.x0 = (q & 1) ? mx : n.x0;
      c.x1 = (q & 1) ? n.x1 : mx;
      c.y0 = (q & 2) ? my : n.y0;
      c.y1 = (q & 2) ? n.y1 : my;
      c.key = n.key << 2 | static_cast<unsigned long long>(q);
      next[pos++] = c;
    }
  }
}

__global__ void qt_init(int* ids, int n, QtNode* root, int* next_count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ids[i] = i;
  if (i == 0) {
    *root = QtNode{0, n, 0.f, 0.f, 1.f, 1.f, 1ull};
    *next_count = 0;
  }
}

// Buffers kept between calls (grown when needed): two id buffers, two node lists
// (non-empty nodes of one level are disjoint, so at most num_points each), a counter.
void* g_scratch = nullptr;
int g_scratch_points = 0;

}  // namespace

int qt_run(const float* d_x, const float* d_y, int num_points, int max_depth, int min_points,
           unsigned long long* d_leaf_keys) {
  if (num_points < 0 || max_depth < 0 || max_depth > kMaxDepthGuard || min_points < 0)
    return -static_cast<int>(cudaErrorInvalidValue);
  if (num_points == 0) return 0;
  const size_t n = static_cast<size_t>(num_points);
  if (g_scratch_points < num_points) {
    cudaFree(g_scratch);
    g_scratch_points = 0;
    if (cudaMalloc(&g_scratch, 2 * n * sizeof(QtNode) + 2 * n * sizeof(int) + 256) != cudaSuccess)
      return -static_cast<int>(cudaGetLastError());
    g_scratch_points = num_points;
  }
  QtNode* cur = static_cast<QtNode*>(g_scratch);
  QtNode* next = cur + n;
  int* ids_even = reinterpret_cast<int*>(next + n);
  int* ids_odd = ids_even + n;
  int* d_count = ids_odd + n;
  qt_init<<<(num_points + 255) / 256, 256>>>(ids_even, num_points, cur, d_count);
  int count = 1;
  for (int depth = 0; depth <= max_depth && count > 0; ++depth) {
    qt_level<<<count, kBlock>>>(cur, depth, d_x, d_y, ids_even, ids_odd, max_depth, min_points, d_leaf_keys, next,
                                d_count);
    if (cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost) != cudaSuccess)
      return -static_cast<int>(cudaGetLastError());
    if (count > 0 && cudaMemsetAsync(d_count, 0, sizeof(int)) != cudaSuccess)
      return -static_cast<int>(cudaGetLastError());
    QtNode* t = cur;
    cur = next;
    next = t;
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return 0;
}

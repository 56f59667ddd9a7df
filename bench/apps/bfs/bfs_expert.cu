// BFS, load-balanced by a GPU expert: per level, the frontier's degrees are
// prefix-summed (CUB) and every thread takes an equal share of the level's
// edges, finding its frontier vertex by binary search over the scan
// (merge-path style), so a hub's neighbour list is spread over the whole GPU.
// On low-degree graphs (mean degree < kBalanceDegree) the scan costs more
// than it balances, and a thread per frontier vertex is used instead.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 256;
constexpr int kBalanceDegree = 8;

__global__ void bfs_expand_vertices(GraphDev g, const int* frontier, int frontier_size, int next_level, int* levels,
                                    int* next_frontier, int* next_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_size) return;
  int v = frontier[i];
  for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
    int u = g.col_indices[e];
    if (levels[u] == -1 && atomicCAS(&levels[u], -1, next_level) == -1) next_frontier[atomicAdd(next_size, 1)] = u;
  }
}

__global__ void bfs_frontier_degrees(const int* row_offsets, const int* frontier, int frontier_size, int* degrees) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < frontier_size) degrees[i] = row_offsets[frontier[i] + 1] - row_offsets[frontier[i]];
}

__global__ void bfs_expand_edges(GraphDev g, const int* frontier, const int* edge_ends, int frontier_size,
                                 int next_level, int* levels, int* next_frontier, int* next_size) {
  const int total = edge_ends[frontier_size - 1];
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < total; k += gridDim.x * blockDim.x) {
    int lo = 0, hi = frontier_size - 1;  // first i with edge_ends[i] > k
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (edge_ends[mid] > k) hi = mid; else lo = mid + 1;
    }
    int v = frontier[lo];
    int start = lo == 0 ? 0 : edge_ends[lo - 1];
    int u = g.col_indices[g.row_offsets[v] + (k - start)];
    if (levels[u] == -1 && atomicCAS(&levels[u], -1, next_level) == -1) next_frontier[atomicAdd(next_size, 1)] = u;
  }
}

__global__ void bfs_init(int* levels, int n, int source, int* frontier) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) levels[v] = v == source ? 0 : -1;
  if (v == 0) frontier[0] = source;
}

}  // namespace

int bfs_run(const GraphDev& g, int source, int* d_levels) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  int *frontier = nullptr, *next = nullptr, *next_size = nullptr, *degrees = nullptr, *ends = nullptr;
  cudaMalloc(&frontier, sizeof(int) * g.num_nodes);
  cudaMalloc(&next, sizeof(int) * g.num_nodes);
  cudaMalloc(&degrees, sizeof(int) * g.num_nodes);
  cudaMalloc(&ends, sizeof(int) * g.num_nodes);
  cudaMalloc(&next_size, sizeof(int));
  size_t temp_bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, degrees, ends, g.num_nodes);
  void* temp = nullptr;
  cudaMalloc(&temp, temp_bytes);
  bfs_init<<<(g.num_nodes + kBlock - 1) / kBlock, kBlock>>>(d_levels, g.num_nodes, source, frontier);
  int frontier_size = 1;
  for (int level = 0; frontier_size > 0; ++level) {
    cudaMemsetAsync(next_size, 0, sizeof(int));
    if (g.num_edges < kBalanceDegree * static_cast<long long>(g.num_nodes)) {
      bfs_expand_vertices<<<(frontier_size + kBlock - 1) / kBlock, kBlock>>>(g, frontier, frontier_size, level + 1,
                                                                            d_levels, next, next_size);
    } else {
      bfs_frontier_degrees<<<(frontier_size + kBlock - 1) / kBlock, kBlock>>>(g.row_offsets, frontier,
                                                                               frontier_size, degrees);
      cub::DeviceScan::InclusiveSum(temp, temp_bytes, degrees, ends, frontier_size);
      bfs_expand_edges<<<sms * 8, kBlock>>>(g, frontier, ends, frontier_size, level + 1, d_levels, next, next_size);
    }
    cudaMemcpy(&frontier_size, next_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = frontier;
    frontier = next;
    next = t;
  }
  cudaFree(frontier);
  cudaFree(next);
  cudaFree(degrees);
  cudaFree(ends);
  cudaFree(next_size);
  cudaFree(temp);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

// BFS without dynamic parallelism: the same parent thread per frontier vertex
// walks its neighbour list in a loop (the papers' "No CDP" version).
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;

__global__ void bfs_expand_frontier(GraphDev g, const int* frontier, int frontier_size, int next_level,
                                    int* levels, int* next_frontier, int* next_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_size) return;
  int v = frontier[i];
  for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
    int u = g.col_indices[e];
    if (atomicCAS(&levels[u], -1, next_level) == -1) next_frontier[atomicAdd(next_size, 1)] = u;
  }
}

__global__ void bfs_init(int* levels, int n, int source, int* frontier) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) levels[v] = v == source ? 0 : -1;
  if (v == 0) frontier[0] = source;
}

}  // namespace

int bfs_run(const GraphDev& g, int source, int* d_levels) {
  int *frontier = nullptr, *next = nullptr, *next_size = nullptr;
  cudaMalloc(&frontier, sizeof(int) * g.num_nodes);
  cudaMalloc(&next, sizeof(int) * g.num_nodes);
  cudaMalloc(&next_size, sizeof(int));
  bfs_init<<<(g.num_nodes + 255) / 256, 256>>>(d_levels, g.num_nodes, source, frontier);
  int frontier_size = 1;
  for (int level = 0; frontier_size > 0; ++level) {
    cudaMemsetAsync(next_size, 0, sizeof(int));
    bfs_expand_frontier<<<(frontier_size + kParentBlock - 1) / kParentBlock, kParentBlock>>>(
        g, frontier, frontier_size, level + 1, d_levels, next, next_size);
    cudaMemcpy(&frontier_size, next_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = frontier;
    frontier = next;
    next = t;
  }
  cudaFree(frontier);
  cudaFree(next);
  cudaFree(next_size);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

// SSSP without dynamic parallelism: worklist Bellman-Ford where each worklist
// vertex's thread relaxes its out-edges in a loop.
#include <climits>
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;

__global__ void sssp_process_worklist(GraphDev g, const int* work, int work_size, int round, int* dist, int* stamp,
                                      int* next_work, int* next_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= work_size) return;
  int v = work[i];
  for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
    int u = g.col_indices[e];
    int nd = dist[v] + g.weights[e];
    if (nd < dist[u] && atomicMin(&dist[u], nd) > nd && atomicExch(&stamp[u], round) != round)
      next_work[atomicAdd(next_size, 1)] = u;
  }
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

int sssp_run(const GraphDev& g, int source, int* d_dist) {
  int *work = nullptr, *next = nullptr, *next_size = nullptr, *stamp = nullptr;
  cudaMalloc(&work, sizeof(int) * g.num_nodes);
  cudaMalloc(&next, sizeof(int) * g.num_nodes);
  cudaMalloc(&stamp, sizeof(int) * g.num_nodes);
  cudaMalloc(&next_size, sizeof(int));
  sssp_init<<<(g.num_nodes + 255) / 256, 256>>>(d_dist, stamp, g.num_nodes, source, work);
  int work_size = 1;
  for (int round = 0; work_size > 0; ++round) {
    cudaMemsetAsync(next_size, 0, sizeof(int));
    sssp_process_worklist<<<(work_size + kParentBlock - 1) / kParentBlock, kParentBlock>>>(
        g, work, work_size, round, d_dist, stamp, next, next_size);
    cudaMemcpy(&work_size, next_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = work;
    work = next;
    next = t;
  }
  cudaFree(work);
  cudaFree(next);
  cudaFree(stamp);
  cudaFree(next_size);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

// SSSP, load-balanced by a GPU expert: worklist Bellman-Ford in which each
// round prefix-sums the worklist's degrees (CUB) and every thread relaxes an
// equal share of the round's edges, finding its vertex by binary search over
// the scan (merge-path style), so a hub's edges spread over the whole GPU.
// On low-degree graphs (mean degree < kBalanceDegree) the scan costs more
// than it balances, and a thread per worklist vertex is used instead.
#include <climits>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 256;
constexpr int kBalanceDegree = 8;

__global__ void sssp_relax_vertices(GraphDev g, const int* work, int work_size, int round, int* dist, int* stamp,
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

__global__ void sssp_work_degrees(const int* row_offsets, const int* work, int work_size, int* degrees) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < work_size) degrees[i] = row_offsets[work[i] + 1] - row_offsets[work[i]];
}

__global__ void sssp_relax_edges(GraphDev g, const int* work, const int* edge_ends, int work_size, int round,
                                 int* dist, int* stamp, int* next_work, int* next_size) {
  const int total = edge_ends[work_size - 1];
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < total; k += gridDim.x * blockDim.x) {
    int lo = 0, hi = work_size - 1;  // first i with edge_ends[i] > k
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (edge_ends[mid] > k) hi = mid; else lo = mid + 1;
    }
    int v = work[lo];
    int e = g.row_offsets[v] + (k - (lo == 0 ? 0 : edge_ends[lo - 1]));
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
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  // A vertex can enter a worklist once per round, so the worklist never exceeds num_nodes.
  int *work = nullptr, *next = nullptr, *next_size = nullptr, *stamp = nullptr, *degrees = nullptr, *ends = nullptr;
  cudaMalloc(&work, sizeof(int) * g.num_nodes);
  cudaMalloc(&next, sizeof(int) * g.num_nodes);
  cudaMalloc(&stamp, sizeof(int) * g.num_nodes);
  cudaMalloc(&degrees, sizeof(int) * g.num_nodes);
  cudaMalloc(&ends, sizeof(int) * g.num_nodes);
  cudaMalloc(&next_size, sizeof(int));
  size_t temp_bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, degrees, ends, g.num_nodes);
  void* temp = nullptr;
  cudaMalloc(&temp, temp_bytes);
  sssp_init<<<(g.num_nodes + kBlock - 1) / kBlock, kBlock>>>(d_dist, stamp, g.num_nodes, source, work);
  int work_size = 1;
  for (int round = 0; work_size > 0; ++round) {
    cudaMemsetAsync(next_size, 0, sizeof(int));
    if (g.num_edges < kBalanceDegree * static_cast<long long>(g.num_nodes)) {
      sssp_relax_vertices<<<(work_size + kBlock - 1) / kBlock, kBlock>>>(g, work, work_size, round, d_dist, stamp,
                                                                        next, next_size);
    } else {
      sssp_work_degrees<<<(work_size + kBlock - 1) / kBlock, kBlock>>>(g.row_offsets, work, work_size, degrees);
      cub::DeviceScan::InclusiveSum(temp, temp_bytes, degrees, ends, work_size);
      sssp_relax_edges<<<sms * 8, kBlock>>>(g, work, ends, work_size, round, d_dist, stamp, next, next_size);
    }
    cudaMemcpy(&work_size, next_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = work;
    work = next;
    next = t;
  }
  cudaFree(work);
  cudaFree(next);
  cudaFree(stamp);
  cudaFree(degrees);
  cudaFree(ends);
  cudaFree(next_size);
  cudaFree(temp);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

// Graph colouring (Jones–Plassmann) without dynamic parallelism: the parent
// thread of each uncoloured vertex checks its neighbours in a loop.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 256;

__global__ void gc_select(GraphDev g, const int* colors, int* candidate) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.num_nodes || colors[v] >= 0) return;
  int best = 1;
  for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1] && best; ++e) {
    int u = g.col_indices[e];
    if (colors[u] < 0 && gc_beats(u, v)) best = 0;
  }
  candidate[v] = best;
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
  int *candidate = nullptr, *colored = nullptr;
  cudaMalloc(&candidate, sizeof(int) * g.num_nodes);
  cudaMalloc(&colored, sizeof(int));
  cudaMemsetAsync(colored, 0, sizeof(int));
  const int blocks = (g.num_nodes + kBlock - 1) / kBlock;
  gc_init<<<blocks, kBlock>>>(g.num_nodes, d_colors);
  int done = 0, last = -1;
  for (int round = 0; done < g.num_nodes && done != last; ++round) {
    gc_select<<<blocks, kBlock>>>(g, d_colors, candidate);
    gc_assign<<<blocks, kBlock>>>(g.num_nodes, round, candidate, d_colors, colored);
    last = done;
    cudaMemcpy(&done, colored, sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaFree(candidate);
  cudaFree(colored);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

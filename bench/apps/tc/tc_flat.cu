// Triangle counting without dynamic parallelism: the parent thread of vertex u
// loops over its neighbours v > u and intersects N(u) and N(v) above v.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 256;

__global__ void tc_vertices(GraphDev g, unsigned long long* count) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= g.num_nodes) return;
  const int begin = g.row_offsets[u], end = g.row_offsets[u + 1];
  unsigned long long c = 0;
  for (int e = begin; e < end; ++e) {
    int v = g.col_indices[e];
    if (v <= u) continue;
    int i = e + 1, j = g.row_offsets[v];
    const int je = g.row_offsets[v + 1];
    while (j < je && g.col_indices[j] <= v) ++j;
    while (i < end && j < je) {
      int a = g.col_indices[i], b = g.col_indices[j];
      c += a == b;
      i += a <= b;
      j += b <= a;
    }
  }
  if (c) atomicAdd(count, c);
}

}  // namespace

int tc_run(const GraphDev& g, unsigned long long* d_count) {
  cudaMemsetAsync(d_count, 0, sizeof(unsigned long long));
  tc_vertices<<<(g.num_nodes + kBlock - 1) / kBlock, kBlock>>>(g, d_count);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

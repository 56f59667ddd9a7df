// BFS over a graph with power-law-like degrees; a child grid per frontier
// vertex visits its neighbours. Usage: bfs_skewed <seed> <output file>
#include "common.cuh"

__global__ void visitNeighbours(const int *adjacency, int begin, int degree, int *levels,
                                int nextLevel, int *changed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= degree)
    return;
  int v = adjacency[begin + i];
  if (atomicCAS(&levels[v], -1, nextLevel) == -1)
    *changed = 1;
}

__global__ void expandFrontier(const int *rowStart, const int *adjacency, int vertices,
                               int *levels, int level, int *changed) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= vertices || levels[u] != level)
    return;
  int begin = rowStart[u];
  int degree = rowStart[u + 1] - begin;
  if (degree > 0) {
    visitNeighbours<<<(degree + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(
        adjacency, begin, degree, levels, level + 1, changed);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int n = 1 << 18;
  std::vector<int> rowStart(n + 1, 0), adjacency;
  for (int u = 0; u < n; ++u) {
    // Degrees 1..8 mostly; one vertex in 64 has 100..4,000 neighbours.
    int degree = rng.below(64) == 0 ? 100 + (int)rng.below(3900) : 1 + (int)rng.below(8);
    for (int k = 0; k < degree; ++k)
      adjacency.push_back((int)rng.below(n));
    rowStart[u + 1] = (int)adjacency.size();
  }
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 18));
  int *dRow, *dAdj, *dLevels, *dChanged;
  CHECK(cudaMalloc(&dRow, sizeof(int) * (n + 1)));
  CHECK(cudaMalloc(&dAdj, sizeof(int) * adjacency.size()));
  CHECK(cudaMalloc(&dLevels, sizeof(int) * n));
  CHECK(cudaMalloc(&dChanged, sizeof(int)));
  CHECK(cudaMemcpy(dRow, rowStart.data(), sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dAdj, adjacency.data(), sizeof(int) * adjacency.size(),
                   cudaMemcpyHostToDevice));
  std::vector<int> levels(n);
  auto bfs = [&] {
    std::fill(levels.begin(), levels.end(), -1);
    levels[0] = 0;
    CHECK(cudaMemcpy(dLevels, levels.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    int changed = 1;
    for (int level = 0; changed; ++level) {
      changed = 0;
      CHECK(cudaMemcpy(dChanged, &changed, sizeof(int), cudaMemcpyHostToDevice));
      expandFrontier<<<(n + 255) / 256, 256>>>(dRow, dAdj, n, dLevels, level, dChanged);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(&changed, dChanged, sizeof(int), cudaMemcpyDeviceToHost));
    }
  };
  float ms = medianMs(10, bfs);
  CHECK(cudaMemcpy(levels.data(), dLevels, sizeof(int) * n, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], levels.data(), sizeof(int) * n);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

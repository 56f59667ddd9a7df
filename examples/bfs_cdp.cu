// Level-synchronous breadth-first search written the natural dynamic
// parallelism way: every frontier vertex launches a child grid with one
// thread per neighbour. High-degree vertices get big grids; the many
// low-degree ones get tiny grids whose launch cost dominates.
//
// Build: nvcc -arch=sm_90 -rdc=true -O3 bfs_cdp.cu -o bfs_cdp -lcudadevrt
// Run:   ./bfs_cdp [vertices] [seed]   prints a checksum of the BFS levels
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
                   cudaGetErrorString(err_));                                    \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

__device__ int launchFailures;

// One thread per neighbour of a frontier vertex.
__global__ void visitNeighbours(const int *adjacency, int begin, int degree,
                                int *levels, int nextLevel, int *frontierChanged) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= degree)
    return;
  int v = adjacency[begin + i];
  if (atomicCAS(&levels[v], -1, nextLevel) == -1)
    *frontierChanged = 1;
}

// One thread per vertex; vertices on the current level expand.
__global__ void expandFrontier(const int *rowStart, const int *adjacency, int vertices,
                               int *levels, int level, int *frontierChanged) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= vertices || levels[u] != level)
    return;
  int begin = rowStart[u];
  int degree = rowStart[u + 1] - begin;
  if (degree > 0) {
    visitNeighbours<<<(degree + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(
        adjacency, begin, degree, levels, level + 1, frontierChanged);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&launchFailures, 1);
  }
}

// A graph with a skewed degree distribution: a few hubs, many leaves.
static void makeGraph(int n, unsigned seed, std::vector<int> &rowStart,
                      std::vector<int> &adjacency) {
  std::srand(seed);
  std::vector<std::vector<int>> lists(n);
  for (int u = 0; u < n; ++u) {
    int degree = (std::rand() % 100 == 0) ? 200 + std::rand() % 2000 : 1 + std::rand() % 6;
    for (int k = 0; k < degree; ++k)
      lists[u].push_back(std::rand() % n);
  }
  rowStart.assign(n + 1, 0);
  for (int u = 0; u < n; ++u)
    rowStart[u + 1] = rowStart[u] + (int)lists[u].size();
  for (auto &l : lists)
    adjacency.insert(adjacency.end(), l.begin(), l.end());
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 200000;
  unsigned seed = argc > 2 ? (unsigned)std::atoi(argv[2]) : 1;
  std::vector<int> rowStart, adjacency;
  makeGraph(n, seed, rowStart, adjacency);

  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 20));
  int *dRow, *dAdj, *dLevels, *dChanged;
  CHECK(cudaMalloc(&dRow, sizeof(int) * (n + 1)));
  CHECK(cudaMalloc(&dAdj, sizeof(int) * adjacency.size()));
  CHECK(cudaMalloc(&dLevels, sizeof(int) * n));
  CHECK(cudaMalloc(&dChanged, sizeof(int)));
  CHECK(cudaMemcpy(dRow, rowStart.data(), sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dAdj, adjacency.data(), sizeof(int) * adjacency.size(),
                   cudaMemcpyHostToDevice));
  std::vector<int> levels(n, -1);
  levels[0] = 0;
  CHECK(cudaMemcpy(dLevels, levels.data(), sizeof(int) * n, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  int level = 0, changed = 1;
  while (changed) {
    changed = 0;
    CHECK(cudaMemcpy(dChanged, &changed, sizeof(int), cudaMemcpyHostToDevice));
    expandFrontier<<<(n + 255) / 256, 256>>>(dRow, dAdj, n, dLevels, level, dChanged);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&changed, dChanged, sizeof(int), cudaMemcpyDeviceToHost));
    ++level;
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  int failures = 0;
  CHECK(cudaMemcpyFromSymbol(&failures, launchFailures, sizeof(int)));
  CHECK(cudaMemcpy(levels.data(), dLevels, sizeof(int) * n, cudaMemcpyDeviceToHost));
  long long checksum = 0;
  int reached = 0;
  for (int u = 0; u < n; ++u)
    if (levels[u] >= 0) {
      checksum += (long long)levels[u] * (u % 1000 + 1);
      ++reached;
    }
  std::printf("levels %d reached %d checksum %lld launch-failures %d time %.3f ms\n", level,
              reached, checksum, failures, ms);
  return failures == 0 ? 0 : 1;
}

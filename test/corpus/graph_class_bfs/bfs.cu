// Level-synchronous BFS over a graph class with private CSR arrays. For each
// node of the frontier the parent launches a child over the node's edges;
// children reach the graph through its accessors only. A child thread may
// handle several edges when the child's grid is capped.
// Usage: bfs <seed> <output file>
#include "../corpus.cuh"
#include "device_graph.cuh"

constexpr int kNodes = 1 << 14;
constexpr int kMaxChildBlocks = 4;

__global__ void visitEdges(DeviceGraph g, int v, int level, int *levels, int *nextFrontier,
                           int *frontierSize) {
  for (int k = g.edgeOfThread(); k < g.degree(v); k += DeviceGraph::gridThreads()) {
    int u = g.neighbor(v, k);
    if (atomicCAS(&levels[u], DeviceGraph::kUnvisited, level + 1) == DeviceGraph::kUnvisited) {
      nextFrontier[u] = 1;
      atomicAdd(frontierSize, 1);
    }
  }
}

__global__ void expandLevel(DeviceGraph g, int level, const int *frontier, int *levels,
                            int *nextFrontier, int *frontierSize) {
  int v = g.nodeOfThread();
  if (v < 0 || !frontier[v])
    return;
  int degree = g.degree(v);
  if (degree == 0)
    return;
  int blocks = min((degree + 31) / 32, kMaxChildBlocks);
  visitEdges<<<blocks, 32>>>(g, v, level, levels, nextFrontier, frontierSize);
  noteLaunch();
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> offsets(kNodes + 1, 0), targets;
  for (int v = 0; v < kNodes; ++v) {
    int degree = rng.below(32) == 0 ? 100 + rng.below(400) : 1 + rng.below(6);
    for (int k = 0; k < degree; ++k)
      targets.push_back(rng.below(kNodes));
    offsets[v + 1] = (int)targets.size();
  }
  int *dOffsets, *dTargets, *dLevels, *dFrontier[2], *dSize;
  CORPUS_CHECK(cudaMalloc(&dOffsets, sizeof(int) * offsets.size()));
  CORPUS_CHECK(cudaMalloc(&dTargets, sizeof(int) * targets.size()));
  CORPUS_CHECK(cudaMalloc(&dLevels, sizeof(int) * kNodes));
  CORPUS_CHECK(cudaMalloc(&dFrontier[0], sizeof(int) * kNodes));
  CORPUS_CHECK(cudaMalloc(&dFrontier[1], sizeof(int) * kNodes));
  CORPUS_CHECK(cudaMalloc(&dSize, sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * offsets.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dTargets, targets.data(), sizeof(int) * targets.size(),
                          cudaMemcpyHostToDevice));
  std::vector<int> levels(kNodes, DeviceGraph::kUnvisited), frontier(kNodes, 0);
  const int source = (int)rng.below(kNodes);
  levels[source] = 0;
  frontier[source] = 1;
  CORPUS_CHECK(cudaMemcpy(dLevels, levels.data(), sizeof(int) * kNodes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dFrontier[0], frontier.data(), sizeof(int) * kNodes,
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, kNodes));

  DeviceGraph g(dOffsets, dTargets, kNodes);
  int size = 1;
  for (int level = 0; size > 0; ++level) {
    int *current = dFrontier[level % 2], *next = dFrontier[(level + 1) % 2];
    CORPUS_CHECK(cudaMemset(next, 0, sizeof(int) * kNodes));
    CORPUS_CHECK(cudaMemset(dSize, 0, sizeof(int)));
    expandLevel<<<(g.nodes() + 255) / 256, 256>>>(g, level, current, dLevels, next, dSize);
    CORPUS_CHECK(cudaGetLastError());
    CORPUS_CHECK(cudaMemcpy(&size, dSize, sizeof(int), cudaMemcpyDeviceToHost));
  }
  CORPUS_CHECK(cudaMemcpy(levels.data(), dLevels, sizeof(int) * kNodes, cudaMemcpyDeviceToHost));
  return finish(argv[2], asWords(levels));
}

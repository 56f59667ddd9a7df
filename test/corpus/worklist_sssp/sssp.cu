// Worklist SSSP (Bellman-Ford by rounds), LonestarGPU-like: the host runs one
// round per launch; each parent thread takes a node off the worklist and
// launches a child grid over the node's out-edges, whose degree varies from
// one node to the next. Children relax edges with atomicMin and push improved
// nodes onto the next round's worklist. The distances do not depend on the
// order in which relaxations happen.
// Usage: sssp <seed> <output file>
#include "../corpus.cuh"
#include "worklist.cuh"

constexpr int kNodes = 1 << 13;
constexpr int kChildBlock = 64;
constexpr int kInfinity = 0x3fffffff;

// Other parents' children may lower a distance while it is read.
__device__ inline int loadDistance(int *dist, int node) { return atomicOr(&dist[node], 0); }

__global__ void relaxEdges(CSRGraph g, int src, int srcDist, int *dist, Worklist next,
                           int *stamp, int round) {
  int k = globalThreadId();
  if (k >= getOutDegree(g, src))
    return;
  int e = getFirstEdge(g, src) + k;
  int dst = g.edge_dst[e];
  int candidate = srcDist + g.edge_weight[e];
  if (candidate < atomicMin(&dist[dst], candidate))
    pushOnce(next, stamp, dst, round);
}

__global__ void processWorklist(CSRGraph g, Worklist current, Worklist next, int *dist,
                                int *stamp, int round) {
  int node = itemForThread(current);
  if (node < 0)
    return;
  int degree = getOutDegree(g, node);
  if (degree == 0)
    return;
  relaxEdges<<<(degree + kChildBlock - 1) / kChildBlock, kChildBlock>>>(
      g, node, loadDistance(dist, node), dist, next, stamp, round);
  noteLaunch();
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  // Mostly small degrees with a few hubs, as in road-plus-social mixes.
  std::vector<int> rowStart(kNodes + 1, 0), dst, weight;
  for (int v = 0; v < kNodes; ++v) {
    int degree = rng.below(16) == 0 ? 64 + rng.below(700) : rng.below(8);
    for (int k = 0; k < degree; ++k) {
      dst.push_back(rng.below(kNodes));
      weight.push_back(1 + rng.below(100));
    }
    rowStart[v + 1] = (int)dst.size();
  }
  int *dRow, *dDst, *dWeight, *dDist, *dStamp, *dItems[2], *dCount[2];
  CORPUS_CHECK(cudaMalloc(&dRow, sizeof(int) * rowStart.size()));
  CORPUS_CHECK(cudaMalloc(&dDst, sizeof(int) * dst.size()));
  CORPUS_CHECK(cudaMalloc(&dWeight, sizeof(int) * weight.size()));
  CORPUS_CHECK(cudaMalloc(&dDist, sizeof(int) * kNodes));
  CORPUS_CHECK(cudaMalloc(&dStamp, sizeof(int) * kNodes));
  for (int i = 0; i < 2; ++i) {
    CORPUS_CHECK(cudaMalloc(&dItems[i], sizeof(int) * kNodes));
    CORPUS_CHECK(cudaMalloc(&dCount[i], sizeof(int)));
  }
  CORPUS_CHECK(cudaMemcpy(dRow, rowStart.data(), sizeof(int) * rowStart.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dDst, dst.data(), sizeof(int) * dst.size(), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dWeight, weight.data(), sizeof(int) * weight.size(),
                          cudaMemcpyHostToDevice));
  std::vector<int> dist(kNodes, kInfinity);
  const int source = 0;
  dist[source] = 0;
  CORPUS_CHECK(cudaMemcpy(dDist, dist.data(), sizeof(int) * kNodes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dStamp, 0xff, sizeof(int) * kNodes));
  CORPUS_CHECK(cudaMemcpy(dItems[0], &source, sizeof(int), cudaMemcpyHostToDevice));
  const int one = 1;
  CORPUS_CHECK(cudaMemcpy(dCount[0], &one, sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, kNodes));

  CSRGraph g{kNodes, (int)dst.size(), dRow, dDst, dWeight};
  int items = 1;
  for (int round = 0; items > 0; ++round) {
    Worklist current{dItems[round % 2], dCount[round % 2], kNodes};
    Worklist next{dItems[(round + 1) % 2], dCount[(round + 1) % 2], kNodes};
    CORPUS_CHECK(cudaMemset(next.count, 0, sizeof(int)));
    processWorklist<<<(items + 127) / 128, 128>>>(g, current, next, dDist, dStamp, round);
    CORPUS_CHECK(cudaGetLastError());
    CORPUS_CHECK(cudaMemcpy(&items, next.count, sizeof(int), cudaMemcpyDeviceToHost));
  }
  CORPUS_CHECK(cudaMemcpy(dist.data(), dDist, sizeof(int) * kNodes, cudaMemcpyDeviceToHost));
  return finish(argv[2], asWords(dist));
}

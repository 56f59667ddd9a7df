// A deep recursion of children that cannot run in the parent thread: a
// radix tree over 32-bit keys, built like a quadtree. A block splits its
// node's ids into four buckets by the node's two bits of the key (shared
// counters and barriers), then its thread 0 launches one grid of four
// blocks, one per bucket. A node of at most kLeaf ids, or of the last bits,
// is a leaf: its block writes the node's path for each of its ids. A third
// of the keys come from a few narrow clusters, so some branches go to the
// last level while others stop near the root, and tens of thousands of
// grids are in flight at once: with the default pending-launch pool a
// transformed program must defer, never drop; a lost node leaves its ids
// without a path and the outputs differ.
// Usage: deep_partition <seed> <output file>
#include "common.cuh"

constexpr int kKeys = 1 << 18;
constexpr int kBlock = 128;
constexpr int kLeaf = 2;
constexpr int kLevels = 16; // two bits each

struct Node {
  int begin, end; // ids of the node in the buffer of its level
  unsigned long long path;
};
struct Quad {
  Node child[4]; // block b of a grid splits child[b]
};

__device__ int bucketOf(unsigned key, int level) { return (key >> (30 - 2 * level)) & 3; }

__global__ void split(Quad quad, int level, const unsigned *keys, int *evenIds, int *oddIds,
                      unsigned long long *paths) {
  const Node n = quad.child[blockIdx.x];
  if (n.end <= n.begin)
    return;
  const int *src = (level & 1) ? oddIds : evenIds;
  int *dst = (level & 1) ? evenIds : oddIds;
  if (n.end - n.begin <= kLeaf || level == kLevels) {
    for (int i = n.begin + threadIdx.x; i < n.end; i += kBlock)
      paths[src[i]] = n.path;
    return;
  }
  __shared__ int count[4], cursor[4];
  if (threadIdx.x < 4)
    count[threadIdx.x] = 0;
  __syncthreads();
  for (int i = n.begin + threadIdx.x; i < n.end; i += kBlock)
    atomicAdd(&count[bucketOf(keys[src[i]], level)], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    int at = n.begin;
    for (int b = 0; b < 4; ++b) {
      cursor[b] = at;
      at += count[b];
    }
  }
  __syncthreads();
  for (int i = n.begin + threadIdx.x; i < n.end; i += kBlock) {
    const int id = src[i];
    dst[atomicAdd(&cursor[bucketOf(keys[id], level)], 1)] = id;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    Quad next;
    int at = n.begin;
    for (int b = 0; b < 4; ++b) {
      next.child[b] = Node{at, at + count[b], n.path << 2 | (unsigned long long)b};
      at += count[b];
    }
    split<<<4, kBlock>>>(next, level + 1, keys, evenIds, oddIds, paths);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
}

__global__ void initIds(int *ids) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kKeys)
    ids[i] = i;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<unsigned> keys(kKeys);
  unsigned centres[8];
  for (unsigned &c : centres)
    c = rng.next() << 1;
  for (unsigned &k : keys)
    k = rng.below(3) == 0 ? centres[rng.below(8)] + rng.below(1 << 12) : (rng.next() << 1 ^ rng.below(2));
#ifndef GPU_TEST_DEFAULT_POOL
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 20));
#endif
  unsigned *dKeys;
  int *dIds;
  unsigned long long *dPaths;
  CHECK(cudaMalloc(&dKeys, sizeof(unsigned) * kKeys));
  CHECK(cudaMalloc(&dIds, sizeof(int) * 2 * kKeys));
  CHECK(cudaMalloc(&dPaths, sizeof(unsigned long long) * kKeys));
  CHECK(cudaMemcpy(dKeys, keys.data(), sizeof(unsigned) * kKeys, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dPaths, 0xAB, sizeof(unsigned long long) * kKeys));
    initIds<<<kKeys / 256, 256>>>(dIds);
    Quad root{};
    root.child[0] = Node{0, kKeys, 1ull};
    split<<<1, kBlock>>>(root, 0, dKeys, dIds, dIds + kKeys, dPaths);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> paths(kKeys);
  CHECK(cudaMemcpy(paths.data(), dPaths, sizeof(unsigned long long) * kKeys, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], paths.data(), sizeof(unsigned long long) * kKeys);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// Cooperative-groups kernels launched from the device.
// 1. Per segment of a ragged array, a parent thread launches a child that
//    finds each element's position through thread_block::thread_rank() and
//    a 32-thread tiled partition's rank and size (no barriers).
// 2. A recursive kernel sums a range in shared memory with
//    this_thread_block().sync() between steps, stores the sum in a segment
//    tree and launches itself on both halves until ranges are short.
// Usage: coop <seed> <output file>
#include "../corpus.cuh"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr int kSegments = 1024;
constexpr int kTreeBlock = 128;
constexpr int kLeafLength = 256;
constexpr int kTreeElements = 1 << 15;

// out[i] = in[i] * (lane + 1) + warp of the block, within the segment.
__global__ void weighSegment(const int *in, int *out, int begin, int length) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * block.size() + block.thread_rank();
  if (i >= length)
    return;
  int warpOfBlock = block.thread_rank() / warp.size();
  out[begin + i] = in[begin + i] * (int)(warp.thread_rank() + 1) + warpOfBlock;
}

__global__ void weighAllSegments(const int *in, int *out, const int *segmentStart) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= kSegments)
    return;
  int begin = segmentStart[s], length = segmentStart[s + 1] - begin;
  if (length > 0) {
    weighSegment<<<(length + 63) / 64, 64>>>(in, out, begin, length);
    noteLaunch();
  }
}

// tree[node] = sum of data[lo, hi); node's children are 2 node and 2 node + 1.
__global__ void rangeSums(const int *data, int lo, int hi, int node, long long *tree) {
  __shared__ long long partial[kTreeBlock];
  cg::thread_block block = cg::this_thread_block();
  long long sum = 0;
  for (int i = lo + (int)block.thread_rank(); i < hi; i += kTreeBlock)
    sum += data[i];
  partial[block.thread_rank()] = sum;
  block.sync();
  for (int stride = kTreeBlock / 2; stride > 0; stride /= 2) {
    if (block.thread_rank() < stride)
      partial[block.thread_rank()] += partial[block.thread_rank() + stride];
    cg::this_thread_block().sync();
  }
  if (block.thread_rank() == 0) {
    tree[node] = partial[0];
    if (hi - lo > kLeafLength) {
      int mid = lo + (hi - lo) / 2;
      rangeSums<<<1, kTreeBlock>>>(data, lo, mid, 2 * node, tree);
      noteLaunch();
      rangeSums<<<1, kTreeBlock>>>(data, mid, hi, 2 * node + 1, tree);
      noteLaunch();
    }
  }
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> segmentStart(kSegments + 1, 0);
  for (int s = 0; s < kSegments; ++s)
    segmentStart[s + 1] = segmentStart[s] + (rng.below(8) == 0 ? (int)rng.below(2000) : (int)rng.below(40));
  const int elements = segmentStart[kSegments];
  std::vector<int> in(elements), data(kTreeElements);
  for (int &x : in)
    x = (int)rng.below(1000) - 500;
  for (int &x : data)
    x = (int)rng.below(1 << 20);
  // Leaves are at most kLeafLength long; the tree has fewer than 2 * 2^depth nodes.
  const int treeNodes = 4 * (kTreeElements / kLeafLength) + 2;

  int *dIn, *dOut, *dStart, *dData;
  long long *dTree;
  CORPUS_CHECK(cudaMalloc(&dIn, sizeof(int) * (elements + 1)));
  CORPUS_CHECK(cudaMalloc(&dOut, sizeof(int) * (elements + 1)));
  CORPUS_CHECK(cudaMalloc(&dStart, sizeof(int) * segmentStart.size()));
  CORPUS_CHECK(cudaMalloc(&dData, sizeof(int) * kTreeElements));
  CORPUS_CHECK(cudaMalloc(&dTree, sizeof(long long) * treeNodes));
  CORPUS_CHECK(cudaMemcpy(dIn, in.data(), sizeof(int) * elements, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dStart, segmentStart.data(), sizeof(int) * segmentStart.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dData, data.data(), sizeof(int) * kTreeElements, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dOut, 0, sizeof(int) * (elements + 1)));
  CORPUS_CHECK(cudaMemset(dTree, 0, sizeof(long long) * treeNodes));

  CORPUS_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 12));
  weighAllSegments<<<(kSegments + 127) / 128, 128>>>(dIn, dOut, dStart);
  CORPUS_CHECK(cudaGetLastError());
  rangeSums<<<1, kTreeBlock>>>(dData, 0, kTreeElements, 1, dTree);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());

  std::vector<int> out(elements);
  std::vector<long long> tree(treeNodes);
  CORPUS_CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * elements, cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(tree.data(), dTree, sizeof(long long) * treeNodes,
                          cudaMemcpyDeviceToHost));
  std::vector<uint32_t> words = asWords(out), treeWords = asWords(tree);
  words.insert(words.end(), treeWords.begin(), treeWords.end());
  return finish(argv[2], words);
}

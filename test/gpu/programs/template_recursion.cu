// A recursive template kernel in the shape of the common quadtree sample:
// `template <int Threads>`, a cooperative-groups block, a shared-memory
// reduction with barriers, and thread 0 launching four blocks of the same
// instantiation (`refine<Threads><<<4, Threads>>>`) on the quarters of its
// range until the depth bound. Each node writes its range's sum; the leaves
// write their elements.
// Usage: template_recursion <seed> <output file>
#include "common.cuh"
#include <cooperative_groups.h>
#include <cstring>

namespace cg = cooperative_groups;

struct Range {
  int begin, count, node, depth, maxDepth;
};

template <int Threads>
__global__ void refine(const float *in, float *out, float *sums, Range range) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[Threads];
  int begin = range.begin + blockIdx.x * range.count;
  int node = range.node * 4 + 1 + blockIdx.x;
  if (range.depth == range.maxDepth) {
    for (int i = begin + block.thread_rank(); i < begin + range.count; i += Threads)
      out[i] = in[i] * 2.0f + float(node % 13);
    return;
  }
  float own = 0.0f;
  for (int i = begin + block.thread_rank(); i < begin + range.count; i += Threads)
    own += in[i];
  partial[block.thread_rank()] = own;
  block.sync();
  for (int stride = Threads / 2; stride > 0; stride /= 2) {
    if (block.thread_rank() < stride)
      partial[block.thread_rank()] += partial[block.thread_rank() + stride];
    block.sync();
  }
  if (block.thread_rank() == 0) {
    sums[node] = partial[0];
    Range quarter{begin, range.count / 4, node, range.depth + 1, range.maxDepth};
    refine<Threads><<<4, Threads>>>(in, out, sums, quarter);
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
  const int maxDepth = 6;
  const int n = (1 << (2 * maxDepth)) * 256; // 4^6 leaves of 256 elements
  const int nodes = (1 << (2 * (maxDepth + 1))) * 2;
  std::vector<float> input(n);
  for (float &v : input)
    v = float(rng.below(1 << 16)) / 256.0f;
  float *dIn, *dOut, *dSums;
  CHECK(cudaMalloc(&dIn, sizeof(float) * n));
  CHECK(cudaMalloc(&dOut, sizeof(float) * n));
  CHECK(cudaMalloc(&dSums, sizeof(float) * nodes));
  CHECK(cudaMemcpy(dIn, input.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0, sizeof(float) * n));
    CHECK(cudaMemset(dSums, 0, sizeof(float) * nodes));
    // The root: one block over the whole range, at depth 0 (node 1; node k
    // has children 4k + 1 to 4k + 4).
    refine<128><<<1, 128>>>(dIn, dOut, dSums, Range{0, n, 0, 0, maxDepth});
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> bytes(n + nodes);
  CHECK(cudaMemcpy(bytes.data(), dOut, sizeof(float) * n, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bytes.data() + n, dSums, sizeof(float) * nodes, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], bytes.data(), sizeof(float) * bytes.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

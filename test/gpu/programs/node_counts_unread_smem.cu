// A block per node of a point set; its first thread launches a child block
// that counts the node's points per quadrant in a static shared table, with
// a dynamic shared memory size the child never reads (4 * sizeof(int), as
// quadtree code passes it). Launch removal runs the child in the parent
// block (T3) or the persistent grid (T1/T2) without room for that size.
// Usage: node_counts_unread_smem <seed> <output file>
#include "common.cuh"

constexpr int kNodes = 4000;

__global__ void countNode(const float2 *pts, int first, int last, int *counts) {
  __shared__ int local[4];
  if (threadIdx.x < 4)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = first + threadIdx.x; i < last; i += blockDim.x)
    atomicAdd(&local[(pts[i].x > 0.5f) + 2 * (pts[i].y > 0.5f)], 1);
  __syncthreads();
  if (threadIdx.x < 4)
    counts[threadIdx.x] = local[threadIdx.x];
}

__global__ void countNodes(const float2 *pts, const int *offsets, int *counts) {
  if (threadIdx.x == 0) {
    countNode<<<1, blockDim.x, 4 * sizeof(int)>>>(pts, offsets[blockIdx.x],
                                                  offsets[blockIdx.x + 1], counts + 4 * blockIdx.x);
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
  std::vector<int> offsets(kNodes + 1, 0);
  for (int n = 0; n < kNodes; ++n)
    offsets[n + 1] = offsets[n] + (rng.below(16) == 0 ? (int)rng.below(4000) : (int)rng.below(300));
  int total = offsets[kNodes];
  std::vector<float2> pts(total);
  for (float2 &p : pts)
    p = make_float2(rng.below(1000) / 999.0f, rng.below(1000) / 999.0f);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  float2 *dPts;
  int *dOffsets, *dCounts;
  CHECK(cudaMalloc(&dPts, sizeof(float2) * (total + 1)));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kNodes + 1)));
  CHECK(cudaMalloc(&dCounts, sizeof(int) * 4 * kNodes));
  CHECK(cudaMemcpy(dPts, pts.data(), sizeof(float2) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kNodes + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dCounts, 0xff, sizeof(int) * 4 * kNodes));
    countNodes<<<kNodes, 128>>>(dPts, dOffsets, dCounts);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(5, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> counts(4 * kNodes);
  CHECK(cudaMemcpy(counts.data(), dCounts, sizeof(int) * counts.size(), cudaMemcpyDeviceToHost));
  writeOutput(argv[2], counts.data(), sizeof(int) * counts.size());
  int wrong = 0;
  for (int n = 0; n < kNodes; ++n) {
    int expect[4] = {0, 0, 0, 0};
    for (int i = offsets[n]; i < offsets[n + 1]; ++i)
      ++expect[(pts[i].x > 0.5f) + 2 * (pts[i].y > 0.5f)];
    for (int q = 0; q < 4; ++q)
      wrong += counts[4 * n + q] != expect[q];
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

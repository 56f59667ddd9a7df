// One __device__ helper that launches, called once by each of two kernels:
// every thread runs it at most once, so the passes take its launch (before,
// "it is called at 2 places" kept it as written). The first kernel fills
// each segment; the second, launched after it, adds to the segments with a
// second child of the same helper.
// Usage: helper_two_kernels <seed> <output file>
#include "common.cuh"

constexpr int kSegments = 3000;

__global__ void addRange(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += v * (i % 7 + 1);
}

__device__ void addSegment(int *a, int n, int v) {
  if (n > 0)
    addRange<<<(n + 63) / 64, 64>>>(a, n, v);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

__global__ void firstPass(int *data, const int *offsets, int count) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < count)
    addSegment(data + offsets[s], offsets[s + 1] - offsets[s], s % 13 + 1);
}

__global__ void secondPass(int *data, const int *offsets, int count) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < count && s % 3 != 0)
    addSegment(data + offsets[s], offsets[s + 1] - offsets[s], 100);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> offsets(kSegments + 1, 0);
  for (int s = 0; s < kSegments; ++s)
    offsets[s + 1] = offsets[s] + (rng.below(10) == 0 ? (int)rng.below(3000) : (int)rng.below(100));
  int total = offsets[kSegments];
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  int *dData, *dOffsets;
  CHECK(cudaMalloc(&dData, sizeof(int) * (total + 1)));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kSegments + 1)));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kSegments + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dData, 0, sizeof(int) * (total + 1)));
    firstPass<<<(kSegments + 127) / 128, 128>>>(dData, dOffsets, kSegments);
    secondPass<<<(kSegments + 127) / 128, 128>>>(dData, dOffsets, kSegments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(5, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> data(total);
  CHECK(cudaMemcpy(data.data(), dData, sizeof(int) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], data.data(), sizeof(int) * data.size());
  int wrong = 0;
  for (int s = 0; s < kSegments; ++s)
    for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
      int k = i - offsets[s];
      int expect = (s % 13 + 1) * (k % 7 + 1) + (s % 3 != 0 ? 100 * (k % 7 + 1) : 0);
      wrong += data[i] != expect;
    }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

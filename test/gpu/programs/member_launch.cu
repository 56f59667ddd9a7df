// A launch written in a member function of a struct that the parent kernel
// holds by value: each segment is filled by a grid its __device__ method
// launches.
// Usage: member_launch <seed> <output file>
#include "common.cuh"

constexpr int kSegments = 8192;

__global__ void fillSegment(int *out, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value * 3 + i % 7;
}

struct Segments {
  int *data;
  const int *offsets;
  __device__ void fill(int s) const {
    int begin = offsets[s], n = offsets[s + 1] - begin;
    if (n > 0)
      fillSegment<<<(n + 127) / 128, 128>>>(data + begin, n, s);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
};

__global__ void fillAll(Segments segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < kSegments)
    segments.fill(s);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> offsets(kSegments + 1, 0);
  for (int s = 0; s < kSegments; ++s)
    offsets[s + 1] = offsets[s] + (int)(rng.below(32) == 0 ? rng.below(5000) : rng.below(200));
  int total = offsets[kSegments];
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 14));
  Segments segments;
  int *dOffsets;
  CHECK(cudaMalloc(&segments.data, sizeof(int) * total));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kSegments + 1)));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kSegments + 1), cudaMemcpyHostToDevice));
  segments.offsets = dOffsets;
  auto run = [&] {
    CHECK(cudaMemset(segments.data, 0xFF, sizeof(int) * total));
    fillAll<<<kSegments / 256, 256>>>(segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(total);
  CHECK(cudaMemcpy(out.data(), segments.data, sizeof(int) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * total);
  int wrong = 0;
  for (int s = 0; s < kSegments; ++s)
    for (int i = offsets[s]; i < offsets[s + 1]; ++i)
      wrong += out[i] != s * 3 + (i - offsets[s]) % 7;
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return launchFailures() == 0 && wrong == 0 ? 0 : 1;
}

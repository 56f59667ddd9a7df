// A parent thread per segment launches one of two children of independent
// threads, chosen by the segment: a scale over the segment's elements, or a
// prefix-free offset over them in blocks of another size. Launch removal's
// persistent grid records both children in one queue, each record tagged
// with its child; the megakernel packs the threads of both kinds together.
// Usage: two_children_segments <seed> <output file>
#include "common.cuh"

constexpr int kSegments = 12000;

__global__ void scaleSegment(int *data, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = (i % 11 + 1) * factor;
}

__global__ void offsetSegment(int *data, int n, int base, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = base + step * (i % 5);
}

__global__ void routeSegments(int *data, const int *offsets, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  int first = offsets[s], n = offsets[s + 1] - first;
  if (n == 0)
    return;
  if (s % 3 == 0)
    scaleSegment<<<(n + 63) / 64, 64>>>(data + first, n, s % 13 + 1);
  else
    offsetSegment<<<(n + 31) / 32, 32>>>(data + first, n, 1000 + s % 17, s % 7 + 2);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
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
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 14));
  int *dData, *dOffsets;
  CHECK(cudaMalloc(&dData, sizeof(int) * (total + 1)));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kSegments + 1)));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kSegments + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dData, 0, sizeof(int) * (total + 1)));
    routeSegments<<<(kSegments + 127) / 128, 128>>>(dData, dOffsets, kSegments);
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
      int expect = s % 3 == 0 ? (k % 11 + 1) * (s % 13 + 1) : 1000 + s % 17 + (s % 7 + 2) * (k % 5);
      wrong += data[i] != expect;
    }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

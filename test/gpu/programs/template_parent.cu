// A template parent launching a template child of another namespace (its
// template arguments deduced from the launch's arguments), launched
// from the host with its template arguments deduced, for two element types:
// the shape of a generic segmented library routine. Each parent thread owns
// a segment of skewed length.
// Usage: template_parent <seed> <output file>
#include "common.cuh"
#include <cstring>

namespace segmented {
template <typename T, int Threads = 128>
__global__ void addToSegment(T *values, unsigned n, T amount) {
  unsigned i = blockIdx.x * Threads + threadIdx.x;
  if (i < n)
    values[i] = values[i] * T(3) + amount + T(threadIdx.x % 7);
}
} // namespace segmented

template <typename T>
__global__ void addToSegments(T *values, const unsigned *offsets, const unsigned *lengths,
                              int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned n = lengths[s];
  if (n > 0)
    segmented::addToSegment<<<(n + 127) / 128, 128>>>(values + offsets[s], n, T(s % 11));
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 1 << 14;
  std::vector<unsigned> offsets(segments), lengths(segments);
  unsigned total = 0;
  for (int s = 0; s < segments; ++s) {
    lengths[s] = rng.below(50) == 0 ? 512 + rng.below(8192) : rng.below(64);
    offsets[s] = total;
    total += lengths[s];
  }
  std::vector<int> ints(total);
  std::vector<float> floats(total);
  for (unsigned i = 0; i < total; ++i) {
    ints[i] = int(rng.below(1000));
    floats[i] = float(rng.below(1 << 20)) / 1024.0f;
  }
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 15));
  int *dInts;
  float *dFloats;
  unsigned *dOff, *dLen;
  CHECK(cudaMalloc(&dInts, sizeof(int) * total));
  CHECK(cudaMalloc(&dFloats, sizeof(float) * total));
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * segments));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * segments));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemcpy(dInts, ints.data(), sizeof(int) * total, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dFloats, floats.data(), sizeof(float) * total, cudaMemcpyHostToDevice));
    addToSegments<<<(segments + 127) / 128, 128>>>(dInts, dOff, dLen, segments);
    addToSegments<<<(segments + 127) / 128, 128>>>(dFloats, dOff, dLen, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> outInts(total);
  std::vector<float> outFloats(total);
  CHECK(cudaMemcpy(outInts.data(), dInts, sizeof(int) * total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(outFloats.data(), dFloats, sizeof(float) * total, cudaMemcpyDeviceToHost));
  std::vector<char> bytes(sizeof(int) * total + sizeof(float) * total);
  std::memcpy(bytes.data(), outInts.data(), sizeof(int) * total);
  std::memcpy(bytes.data() + sizeof(int) * total, outFloats.data(), sizeof(float) * total);
  writeOutput(argv[2], bytes.data(), bytes.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// Shared by the GPU differential-test programs: error checks, a seeded
// generator, timing of repeated runs, and writing the output for comparison.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
                   cudaGetErrorString(err_));                                    \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

// Counts device-side launches that failed (e.g. pending-launch pool full):
// such a run is wrong whatever it printed.
__device__ int gpuTestLaunchFailures;

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return (uint32_t)(s >> 11);
  }
  uint32_t below(uint32_t n) { return next() % n; }
};

// Runs `once` (which must reset its own state) one time to warm up and then
// `reps` times; returns the median in milliseconds.
template <typename F> float medianMs(int reps, F once) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  once();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    once();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

inline void writeOutput(const char *path, const void *data, size_t bytes) {
  FILE *f = std::fopen(path, "wb");
  if (!f || std::fwrite(data, 1, bytes, f) != bytes) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(1);
  }
  std::fclose(f);
}

inline int launchFailures() {
  int n = 0;
  CHECK(cudaMemcpyFromSymbol(&n, gpuTestLaunchFailures, sizeof(int)));
  return n;
}

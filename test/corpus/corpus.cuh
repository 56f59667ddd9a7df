// Shared by the corpus programs: error checks, a seeded generator, a
// checksum, and writing the output that the differential run compares.
// Each program's main takes <seed> <output file>, prints one line
// `checksum <hex> launch_failures <n>` and exits nonzero when a device-side
// launch failed (the run is then wrong whatever it wrote).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CORPUS_CHECK(call)                                                       \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
                   cudaGetErrorString(err_));                                    \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

// Device-side launches that failed (pending-launch pool full, depth limit).
__device__ int corpusLaunchFailures;

__device__ inline void noteLaunch() {
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&corpusLaunchFailures, 1);
}

struct CorpusRng {
  uint64_t state;
  explicit CorpusRng(uint64_t seed) : state(seed * 0xD1342543DE82EF95ull + 7) {}
  uint32_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (uint32_t)((state * 0x2545F4914F6CDD1Dull) >> 32);
  }
  uint32_t below(uint32_t n) { return next() % n; }
};

inline uint64_t seedFromArgs(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output file>\n", argv[0]);
    std::exit(2);
  }
  return std::strtoull(argv[1], nullptr, 10);
}

// The device-side launches that failed so far.
inline int launchFailures() {
  int failures = 0;
  CORPUS_CHECK(cudaMemcpyFromSymbol(&failures, corpusLaunchFailures, sizeof(int)));
  return failures;
}

// Writes the 32-bit words to the output file, prints their checksum and the
// launch failures, and returns main's exit status.
inline int finish(const char *path, const std::vector<uint32_t> &words) {
  FILE *f = std::fopen(path, "wb");
  if (!f || std::fwrite(words.data(), 4, words.size(), f) != words.size()) {
    std::fprintf(stderr, "cannot write %s\n", path);
    return 1;
  }
  std::fclose(f);
  uint64_t h = 1469598103934665603ull;
  for (uint32_t w : words)
    h = (h ^ w) * 1099511628211ull;
  int failures = launchFailures();
  std::printf("checksum %016llx words %zu launch_failures %d\n", (unsigned long long)h,
              words.size(), failures);
  return failures == 0 ? 0 : 1;
}

template <typename T> std::vector<uint32_t> asWords(const std::vector<T> &v) {
  static_assert(sizeof(T) % 4 == 0, "outputs are compared as 32-bit words");
  std::vector<uint32_t> w(v.size() * sizeof(T) / 4);
  if (!v.empty())
    std::memcpy(w.data(), v.data(), v.size() * sizeof(T));
  return w;
}

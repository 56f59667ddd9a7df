// A recursive child as quicksort-like codes write it: each level writes the
// upper half of its range and thread 0 launches the same kernel on the
// lower half, down to one element (every element is written once, by one
// level, from nothing another level writes), so a thresholded serial copy would recurse about 14 levels
// deep (the depth guard launches beyond LAUNCHOPT_SERIAL_DEPTH). One segment
// is empty and its grid is written (n - 1) / 32 + 1 with an unsigned n: it
// wraps to 2^27 blocks that do nothing, which a serial copy must not run.
// Usage: recursive_halving <seed> <output file>
#include "common.cuh"

__global__ void halve(unsigned *d, unsigned n, unsigned salt) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i >= n / 2 || n == 1))
    d[i] = i * 3u + salt + n;
  if (i == 0 && n > 1)
    halve<<<(n / 2 + 31) / 32, 32>>>(d, n / 2, salt * 7u + 1u);
}

__global__ void start(unsigned *d, const unsigned *offsets, const unsigned *lengths, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned n = lengths[s];
  halve<<<(n - 1) / 32 + 1, 32, 0, cudaStreamFireAndForget>>>(d + offsets[s], n, (unsigned)s);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 1 << 10;
  std::vector<unsigned> offsets(segments), lengths(segments);
  unsigned total = 0;
  for (int s = 0; s < segments; ++s) {
    bool big = rng.below(50) == 0;
    lengths[s] = s == segments / 2 ? 0 : big ? 4096 + rng.below(16384) : 1 + rng.below(200);
    offsets[s] = total;
    total += lengths[s];
  }
  std::vector<unsigned> init(total);
  for (unsigned &v : init)
    v = rng.next();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dData, *dOff, *dLen;
  CHECK(cudaMalloc(&dData, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * segments));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * segments));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemcpy(dData, init.data(), sizeof(unsigned) * total, cudaMemcpyHostToDevice));
    start<<<(segments + 127) / 128, 128>>>(dData, dOff, dLen, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total);
  CHECK(cudaMemcpy(out.data(), dData, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * total);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// Each parent thread owns a segment of skewed length and launches a child
// grid over it; the child reads its position only through device functions
// (two levels, one a template) that read blockIdx, threadIdx, blockDim and
// gridDim, so a transformed child whose callees saw the wrong built-ins
// writes different values.
// Usage: callee_builtins <seed> <output file>
#include "common.cuh"

__device__ unsigned globalThread() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ unsigned gridThreads() { return gridDim.x * blockDim.x; }

template <typename T>
__device__ T salted(T v) {
  return v ^ (T)(blockIdx.x * 2654435761u) ^ (T)(threadIdx.x << 20);
}

__device__ bool owned(unsigned n, unsigned *i) {
  *i = globalThread();
  return *i < n;
}

__global__ void fillSegment(const unsigned *input, unsigned inputSize, unsigned *out, unsigned n) {
  unsigned i;
  if (!owned(n, &i))
    return;
  out[i] = salted(input[(i * 7u) % inputSize]) + gridThreads();
}

__global__ void fillAll(const unsigned *input, unsigned inputSize, unsigned *out,
                        const unsigned *offsets, const unsigned *lengths, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned n = lengths[s];
  fillSegment<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(input, inputSize,
                                                                    out + offsets[s], n);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 1 << 15;
  std::vector<unsigned> offsets(segments), lengths(segments);
  unsigned total = 0;
  for (int s = 0; s < segments; ++s) {
    bool big = rng.below(100) == 0;
    lengths[s] = big ? 1024 + rng.below(16384) : 1 + rng.below(100);
    offsets[s] = total;
    total += lengths[s];
  }
  const unsigned inputSize = 1u << 20;
  std::vector<unsigned> input(inputSize);
  for (unsigned &v : input)
    v = rng.next();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dIn, *dOut, *dOff, *dLen;
  CHECK(cudaMalloc(&dIn, sizeof(unsigned) * inputSize));
  CHECK(cudaMalloc(&dOut, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * segments));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * segments));
  CHECK(cudaMemcpy(dIn, input.data(), sizeof(unsigned) * inputSize, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  // Poisoned before every run so an element nobody wrote shows up.
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(unsigned) * total));
    fillAll<<<(segments + 127) / 128, 128>>>(dIn, inputSize, dOut, dOff, dLen, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * total);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// Launches made by the last thread of each block, as the common quadtree code
// writes its guard (`threadIdx.x == NUM_THREADS - 1`, or an early return of
// every other thread): one launch per block, from a thread other than zero.
// The block first sums its segment's length in shared memory; the last
// thread launches two children in order into the block's stream, the second
// reading what the first wrote at the same element.
// Usage: last_thread <seed> <output file>
#include "common.cuh"

__global__ void square(unsigned *values, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    values[i] = values[i] * values[i] + 1u;
}

__global__ void fold(unsigned *values, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    values[i] = values[i] % 100003u + i;
}

template <int Threads>
__global__ void perBlock(unsigned *values, const unsigned *offsets, const unsigned *lengths) {
  __shared__ unsigned seen[Threads];
  seen[threadIdx.x] = lengths[blockIdx.x] + threadIdx.x;
  __syncthreads();
  unsigned n = lengths[blockIdx.x];
  if (threadIdx.x == Threads - 1 && seen[0] == n) {
    square<<<(n + 127) / 128, 128>>>(values + offsets[blockIdx.x], n);
    fold<<<(n + 127) / 128, 128>>>(values + offsets[blockIdx.x], n);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
}

__global__ void lastOfBlock(unsigned *values, const unsigned *offsets, const unsigned *lengths) {
  if (threadIdx.x != blockDim.x - 1)
    return;
  unsigned n = lengths[blockIdx.x];
  square<<<(n + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(values + offsets[blockIdx.x], n);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int blocks = 4096;
  std::vector<unsigned> offsets(blocks), lengths(blocks);
  unsigned total = 0;
  for (int b = 0; b < blocks; ++b) {
    lengths[b] = rng.below(32) == 0 ? 1024 + rng.below(8192) : 1 + rng.below(300);
    offsets[b] = total;
    total += lengths[b];
  }
  std::vector<unsigned> input(total);
  for (unsigned &v : input)
    v = rng.below(1 << 15);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 15));
  unsigned *dValues, *dOff, *dLen;
  CHECK(cudaMalloc(&dValues, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * blocks));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * blocks));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * blocks, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * blocks, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemcpy(dValues, input.data(), sizeof(unsigned) * total, cudaMemcpyHostToDevice));
    perBlock<64><<<blocks, 64>>>(dValues, dOff, dLen);
    lastOfBlock<<<blocks, 32>>>(dValues, dOff, dLen);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total);
  CHECK(cudaMemcpy(out.data(), dValues, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * total);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

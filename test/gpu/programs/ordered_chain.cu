// Children of one parent thread launched one after another into the block's
// NULL stream, each reading what the one before it wrote, outside any loop:
// no proof can separate them, so aggregation must keep their order (ordered
// scopes) or leave them. `chains` launches fill, mix, sometimes mix again
// (in a branch) and total; `neighbours` puts a barrier between its two
// launches, and each thread's second child reads the segment that another
// thread's first child wrote: the block's order across the barrier counts.
// Usage: ordered_chain <seed> <output file>
#include "common.cuh"

__global__ void fill(unsigned *values, int size, unsigned salt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size)
    values[i] = (unsigned)i * 2654435761u ^ salt;
}

// x -> 3x + j does not commute with fill or with another j.
__global__ void mix(unsigned *values, int size, unsigned j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size)
    values[i] = values[i] * 3u + j;
}

// Sums what the launches before it left, one warp strided.
__global__ void total(const unsigned *values, int size, unsigned *sum) {
  unsigned s = 0;
  for (int i = threadIdx.x; i < size; i += blockDim.x)
    s += values[i] % 1000u;
  atomicAdd(sum, s);
}

__device__ void noteFailure() {
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

__global__ void chains(unsigned *values, const int *offsets, unsigned *sums, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned *mine = values + offsets[s];
  int size = offsets[s + 1] - offsets[s];
  fill<<<(size + 63) / 64, 64>>>(mine, size, (unsigned)s);
  noteFailure();
  mix<<<(size + 127) / 128, 128>>>(mine, size, 7u);
  noteFailure();
  if (size % 3 == 0) {
    mix<<<(size + 31) / 32, 32>>>(mine, size, 11u);
    noteFailure();
  }
  total<<<1, 32>>>(mine, size, sums + s);
  noteFailure();
}

__global__ void neighbours(unsigned *values, const int *offsets, unsigned *sums, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < segments) {
    int size = offsets[s + 1] - offsets[s];
    fill<<<(size + 255) / 256, 256>>>(values + offsets[s], size, (unsigned)s + 1000u);
    noteFailure();
  }
  __syncthreads();
  int n = s ^ 1; // the other thread of the pair, in the same block
  if (s < segments && n < segments) {
    total<<<1, 32>>>(values + offsets[n], offsets[n + 1] - offsets[n], sums + s);
    noteFailure();
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 1024;
  std::vector<int> offsets(segments + 1, 0);
  for (int s = 0; s < segments; ++s)
    offsets[s + 1] = offsets[s] + 1 + (int)rng.below(3000);
  int total = offsets[segments];
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 15));
  unsigned *dValues, *dOther, *dSums;
  int *dOff;
  CHECK(cudaMalloc(&dValues, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOther, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dSums, sizeof(unsigned) * 2 * segments));
  CHECK(cudaMalloc(&dOff, sizeof(int) * (segments + 1)));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(int) * (segments + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dSums, 0, sizeof(unsigned) * 2 * segments));
    chains<<<(segments + 127) / 128, 128>>>(dValues, dOff, dSums, segments);
    CHECK(cudaGetLastError());
    neighbours<<<(segments + 63) / 64, 64>>>(dOther, dOff, dSums + segments, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(2 * total + 2 * segments);
  CHECK(cudaMemcpy(out.data(), dValues, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out.data() + total, dOther, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out.data() + 2 * total, dSums, sizeof(unsigned) * 2 * segments,
                   cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * out.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// Children of one parent thread that depend on each other through the same
// (default) stream, with sizes that straddle any threshold: a producer of
// `size` threads, then a one-warp consumer that reads what it wrote, and a
// loop of steps that each read the previous step's values (x -> 3x + j, which
// does not commute). Nothing here can be proved independent, so a pass that
// runs one of these children at another time than written must keep the
// stream's order (thresholding's order guard) or leave the launch.
// Usage: ordered_stream <seed> <output file>
#include "common.cuh"

__global__ void produce(unsigned *values, int size, unsigned salt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size)
    values[i] = (unsigned)i * 2654435761u ^ salt;
}

// Sums what produce wrote, one warp strided.
__global__ void consume(const unsigned *values, int size, unsigned *sum) {
  unsigned s = 0;
  for (int i = threadIdx.x; i < size; i += blockDim.x)
    s += values[i] % 1000u;
  atomicAdd(sum, s);
}

__global__ void step(unsigned *values, int size, unsigned j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size)
    values[i] = values[i] * 3u + j;
}

__global__ void parents(unsigned *values, const int *offsets, const int *rounds, unsigned *sums,
                        int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned *mine = values + offsets[s];
  int size = offsets[s + 1] - offsets[s];
  produce<<<(size + 63) / 64, 64>>>(mine, size, (unsigned)s);
  consume<<<1, 32>>>(mine, size, sums + s);
  // Step sizes vary with j: some steps are launched, some may run serially.
  for (int j = 0; j < rounds[s]; ++j) {
    int part = size >> (j % 4);
    step<<<(part + 31) / 32, 32>>>(mine, part, (unsigned)j);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 512;
  std::vector<int> offsets(segments + 1, 0), rounds(segments);
  for (int s = 0; s < segments; ++s) {
    offsets[s + 1] = offsets[s] + 1 + (int)rng.below(2048);
    rounds[s] = (int)rng.below(6);
  }
  int total = offsets[segments];
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 15));
  unsigned *dValues, *dSums;
  int *dOff, *dRounds;
  CHECK(cudaMalloc(&dValues, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dSums, sizeof(unsigned) * segments));
  CHECK(cudaMalloc(&dOff, sizeof(int) * (segments + 1)));
  CHECK(cudaMalloc(&dRounds, sizeof(int) * segments));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(int) * (segments + 1), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dRounds, rounds.data(), sizeof(int) * segments, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dSums, 0, sizeof(unsigned) * segments));
    parents<<<(segments + 127) / 128, 128>>>(dValues, dOff, dRounds, dSums, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total + segments);
  CHECK(cudaMemcpy(out.data(), dValues, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out.data() + total, dSums, sizeof(unsigned) * segments,
                   cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * out.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

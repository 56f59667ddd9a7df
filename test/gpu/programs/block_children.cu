// Children whose threads work together, launched by a host-launched parent:
// each parent thread launches a grid over its segment (a data-dependent
// number of 128-thread blocks, the parent's block shape), and every child
// block scans its 128 elements in shared memory with barriers. Launch
// removal's persistent grid runs each child block as one of its blocks.
// Usage: block_children <seed> <output file>
#include "common.cuh"

constexpr int kSegments = 4096;
constexpr int kBlock = 128;

__global__ void blockScan(const int *in, int *out, int n) {
  __shared__ int values[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  values[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset *= 2) {
    int add = threadIdx.x >= offset ? values[threadIdx.x - offset] : 0;
    __syncthreads();
    values[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n)
    out[i] = values[threadIdx.x];
}

__global__ void scanSegments(const int *in, int *out, const int *offsets) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= kSegments)
    return;
  int n = offsets[s + 1] - offsets[s];
  if (n > 0)
    blockScan<<<(n + kBlock - 1) / kBlock, kBlock>>>(in + offsets[s], out + offsets[s], n);
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
  // Mostly short segments, one in 64 long (up to 40 blocks).
  for (int s = 0; s < kSegments; ++s)
    offsets[s + 1] = offsets[s] + (int)(rng.below(64) == 0 ? rng.below(40 * kBlock) : rng.below(300));
  int total = offsets[kSegments];
  std::vector<int> in(total);
  for (int &v : in)
    v = (int)rng.below(100);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  int *dIn, *dOut, *dOffsets;
  CHECK(cudaMalloc(&dIn, sizeof(int) * total));
  CHECK(cudaMalloc(&dOut, sizeof(int) * total));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kSegments + 1)));
  CHECK(cudaMemcpy(dIn, in.data(), sizeof(int) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kSegments + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(int) * total));
    scanSegments<<<kSegments / kBlock, kBlock>>>(dIn, dOut, dOffsets);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(total);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * total);
  // Each 128-element block of a segment holds the running sums of its block.
  int wrong = 0;
  for (int s = 0; s < kSegments; ++s)
    for (int i = offsets[s], sum = 0; i < offsets[s + 1]; ++i) {
      sum = (i - offsets[s]) % kBlock == 0 ? in[i] : sum + in[i];
      wrong += out[i] != sum;
    }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return launchFailures() == 0 && wrong == 0 ? 0 : 1;
}

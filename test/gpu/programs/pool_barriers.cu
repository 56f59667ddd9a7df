// Pool stress with children that cannot run in the parent thread: every
// thread of the parent grid launches a child that sums its segment through
// shared memory and barriers, 8,192 children at once. Built with
// -DGPU_TEST_DEFAULT_POOL the program keeps the default pending-launch pool
// (2,048 entries), which the original overflows (its dropped launches are
// counted and fail the run); a transformed program must defer, never drop:
// a lost child leaves its sum unwritten and the outputs differ.
// Usage: pool_barriers <seed> <output file>
#include "common.cuh"

constexpr int kSegments = 8192;
constexpr int kSegment = 256;

__global__ void segmentSum(const int *in, int *out) {
  __shared__ int partial[kSegment];
  partial[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int half = kSegment / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = partial[0];
}

__global__ void sumSegments(const int *in, int *out) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= kSegments)
    return;
  segmentSum<<<1, kSegment>>>(in + s * kSegment, out + s);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> in(kSegments * kSegment);
  for (int &v : in)
    v = (int)rng.below(1000);
#ifndef GPU_TEST_DEFAULT_POOL
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 15));
#endif
  int *dIn, *dOut;
  CHECK(cudaMalloc(&dIn, sizeof(int) * in.size()));
  CHECK(cudaMalloc(&dOut, sizeof(int) * kSegments));
  CHECK(cudaMemcpy(dIn, in.data(), sizeof(int) * in.size(), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(int) * kSegments));
    sumSegments<<<kSegments / 128, 128>>>(dIn, dOut);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kSegments);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * out.size(), cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * out.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

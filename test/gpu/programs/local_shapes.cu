// Launch shapes named the way most real code names them: plain locals
// (`int threads = 256;`, `dim3 grid(...)`) that are never written again.
// Each parent thread sums its row with a grid of 256-thread blocks that
// reduce in shared memory; the passes read the locals' values as constants.
// Usage: local_shapes <seed> <output file>
#include "common.cuh"

constexpr int kRows = 2048;
constexpr int kMaxRow = 6000;

__global__ void rowReduce(const int *row, int n, unsigned long long *sum) {
  __shared__ unsigned long long partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? (unsigned long long)row[i] : 0ull;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(sum, partial[0]);
}

__global__ void sumRows(const int *values, const int *offsets, unsigned long long *sums) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= kRows)
    return;
  int threads = 256;
  int n = offsets[r + 1] - offsets[r];
  dim3 grid((n + threads - 1) / threads);
  if (n > 0)
    rowReduce<<<grid, threads>>>(values + offsets[r], n, sums + r);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> offsets(kRows + 1, 0);
  for (int r = 0; r < kRows; ++r)
    offsets[r + 1] = offsets[r] + (int)(rng.below(16) == 0 ? rng.below(kMaxRow) : rng.below(400));
  int total = offsets[kRows];
  std::vector<int> values(total);
  for (int &v : values)
    v = (int)rng.below(1000);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  int *dValues, *dOffsets;
  unsigned long long *dSums;
  CHECK(cudaMalloc(&dValues, sizeof(int) * total));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kRows + 1)));
  CHECK(cudaMalloc(&dSums, sizeof(unsigned long long) * kRows));
  CHECK(cudaMemcpy(dValues, values.data(), sizeof(int) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kRows + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dSums, 0, sizeof(unsigned long long) * kRows));
    int threads = 256;
    sumRows<<<kRows / threads, threads>>>(dValues, dOffsets, dSums);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> sums(kRows);
  CHECK(cudaMemcpy(sums.data(), dSums, sizeof(unsigned long long) * kRows, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], sums.data(), sizeof(unsigned long long) * kRows);
  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    unsigned long long expect = 0;
    for (int i = offsets[r]; i < offsets[r + 1]; ++i)
      expect += values[i];
    wrong += sums[r] != expect;
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return launchFailures() == 0 && wrong == 0 ? 0 : 1;
}

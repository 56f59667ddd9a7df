// A child written with cooperative groups (a thread block, 32-thread tiles,
// a tile's shuffle and its rank), launched one block per parent thread with
// a block named by a dim3 local. Cooperative groups read the lane registers
// in inline assembly: a block that runs the child block with the same
// threads reads the same values.
// Usage: group_children <seed> <output file>
#include "common.cuh"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int kRows = 4096;
constexpr int kRowLength = 1024;

__global__ void rowMax(const int *row, int n, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int best = -1;
  for (int i = block.thread_rank(); i < n; i += block.size())
    best = max(best, row[i]);
  for (int offset = 16; offset > 0; offset /= 2)
    best = max(best, tile.shfl_down(best, offset));
  if (tile.thread_rank() == 0)
    atomicMax(out, best);
}

__global__ void maxOfRows(const int *values, const int *lengths, int *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= kRows)
    return;
  dim3 block(128);
  if (lengths[r] > 0)
    rowMax<<<1, block>>>(values + r * kRowLength, lengths[r], out + r);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> lengths(kRows), values((size_t)kRows * kRowLength);
  for (int &n : lengths)
    n = (int)rng.below(kRowLength + 1);
  for (int &v : values)
    v = (int)rng.below(1 << 30);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  int *dValues, *dLengths, *dOut;
  CHECK(cudaMalloc(&dValues, sizeof(int) * values.size()));
  CHECK(cudaMalloc(&dLengths, sizeof(int) * kRows));
  CHECK(cudaMalloc(&dOut, sizeof(int) * kRows));
  CHECK(cudaMemcpy(dValues, values.data(), sizeof(int) * values.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLengths, lengths.data(), sizeof(int) * kRows, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xFF, sizeof(int) * kRows));
    dim3 block(128);
    maxOfRows<<<kRows / 128, block>>>(dValues, dLengths, dOut);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kRows);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * kRows, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * kRows);
  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    int expect = -1;
    for (int i = 0; i < lengths[r]; ++i)
      expect = std::max(expect, values[(size_t)r * kRowLength + i]);
    wrong += out[r] != expect;
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return launchFailures() == 0 && wrong == 0 ? 0 : 1;
}

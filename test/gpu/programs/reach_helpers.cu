// Each parent thread owns a segment of skewed length and launches two child
// grids over it, into two streams it creates. The children read their
// position only through helpers in a header (reach_helpers.cuh: inline,
// static, a template in a nested namespace) and through cooperative groups
// (grid and block ranks, sizes, a tile's rank); the second child
// synchronizes its block with cooperative groups. A transformed child whose
// helpers or group queries saw the wrong indices writes different values.
// Usage: reach_helpers <seed> <output file>
#include "common.cuh"
#include "reach_helpers.cuh"

namespace cg = cooperative_groups;

__global__ void fillSegment(const unsigned *input, unsigned inputSize, unsigned *out, unsigned n) {
  unsigned i = reach::globalThread();
  if (i != reach::gridRank() || i >= n)
    return;
  cg::thread_block_tile<8, cg::thread_block> tile = cg::tiled_partition<8>(cg::this_thread_block());
  out[i] = reach::detail::salted(input[(i * 7u) % inputSize]) + (unsigned)cg::this_grid().size() +
           tile.thread_rank() * 3u + tile.meta_group_rank();
}

__global__ void mixSegment(unsigned *out, unsigned n) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = block.group_index().x * block.size() + block.thread_rank();
  unsigned mine = i < n ? out[i] : 0;
  block.sync();
  // The neighbour's value, read between the barriers: nobody in the block
  // writes then, and the neighbour is in the same block.
  unsigned neighbour = block.thread_rank() + 1 < block.size() && i + 1 < n ? out[i + 1] : 0;
  block.sync();
  if (i < n)
    out[i] = mine * 2u + neighbour;
}

__global__ void fillAll(const unsigned *input, unsigned inputSize, unsigned *out, unsigned *mixed,
                        const unsigned *offsets, const unsigned *lengths, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned n = lengths[s];
  cudaStream_t first, second;
  cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking);
  fillSegment<<<(n + 127) / 128, 128, 0, first>>>(input, inputSize, out + offsets[s], n);
  mixSegment<<<(n + 63) / 64, 64, 0, second>>>(mixed + offsets[s], n);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
  cudaStreamDestroy(first);
  cudaStreamDestroy(second);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 1 << 14;
  std::vector<unsigned> offsets(segments), lengths(segments);
  unsigned total = 0;
  for (int s = 0; s < segments; ++s) {
    bool big = rng.below(100) == 0;
    lengths[s] = big ? 1024 + rng.below(16384) : 1 + rng.below(100);
    offsets[s] = total;
    total += lengths[s];
  }
  const unsigned inputSize = 1u << 20;
  std::vector<unsigned> input(inputSize), mixedInit(total);
  for (unsigned &v : input)
    v = rng.next();
  for (unsigned &v : mixedInit)
    v = rng.next();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dIn, *dOut, *dMixed, *dOff, *dLen;
  CHECK(cudaMalloc(&dIn, sizeof(unsigned) * inputSize));
  CHECK(cudaMalloc(&dOut, sizeof(unsigned) * total * 2));
  dMixed = dOut + total;
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * segments));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * segments));
  CHECK(cudaMemcpy(dIn, input.data(), sizeof(unsigned) * inputSize, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  // Poisoned before every run so an element nobody wrote shows up.
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(unsigned) * total));
    CHECK(cudaMemcpy(dMixed, mixedInit.data(), sizeof(unsigned) * total, cudaMemcpyHostToDevice));
    fillAll<<<(segments + 127) / 128, 128>>>(dIn, inputSize, dOut, dMixed, dOff, dLen, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total * 2);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(unsigned) * total * 2, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * total * 2);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// GPU check of launchopt::enterLaunchTree (runtime/include/launchopt/
// aggregation.cuh): a grid that only the host launches resets the record pool
// from its first block. Over many launches of many sizes, including grids far
// larger than what runs at once, every launch must find the pool empty (each
// block's allocation lies inside this launch's total, no two overlap) and
// leave the gate cleared for the next launch.
//
//   nvcc -arch=sm_90 -rdc=true -std=c++17 -I runtime/include \
//        test/gpu/pool_gate.cu -lcudadevrt -o pool_gate && ./pool_gate
//
// Prints "pool gate: all checks passed" and exits 0, or names the first failed
// check and exits 1; without a GPU it says so and exits 0.
#include <launchopt/aggregation.cuh>
#include <cstdio>
#include <vector>

namespace {

// As a parent's prologue does: thread 0 passes the gate, the block waits for
// it, then any thread may allocate (here the last one, to be unlike thread 0).
__global__ void allocateOncePerBlock(unsigned bytes, unsigned long long *offsets) {
  if (threadIdx.x == 0)
    launchopt::enterLaunchTree(launchopt::blocksPerGrid());
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) {
    auto *p = static_cast<unsigned char *>(launchopt::poolAllocate(bytes));
    offsets[blockIdx.x] = p ? (unsigned long long)(p - launchopt::pool) : ~0ull;
  }
}

bool fail(const char *what, unsigned launch) {
  std::printf("pool gate: FAILED at launch %u: %s\n", launch, what);
  return false;
}

bool checkLaunch(unsigned launch, unsigned blocks, unsigned bytes, unsigned long long *dOffsets) {
  std::vector<unsigned long long> offsets(blocks);
  unsigned long long cursor = 0;
  unsigned gate[3] = {1, 1, 1};
  cudaMemcpy(offsets.data(), dOffsets, sizeof(unsigned long long) * blocks, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&cursor, launchopt::poolCursor, sizeof cursor);
  cudaMemcpyFromSymbol(&gate[0], launchopt::treeArrived, sizeof(unsigned));
  cudaMemcpyFromSymbol(&gate[1], launchopt::treeDeparted, sizeof(unsigned));
  cudaMemcpyFromSymbol(&gate[2], launchopt::treeReady, sizeof(unsigned));
  if (cudaGetLastError() != cudaSuccess)
    return fail("CUDA error", launch);
  unsigned long long rounded = (bytes + 15ull) & ~15ull, total = rounded * blocks;
  if (cursor != total)
    return fail("the pool was not reset (or reset twice) for this launch", launch);
  if (gate[0] || gate[1] || gate[2])
    return fail("the gate was left set for the next launch", launch);
  std::vector<char> taken(blocks, 0);
  for (unsigned long long o : offsets) {
    if (o >= total || o % rounded)
      return fail("an allocation outside this launch's share of the pool", launch);
    if (taken[o / rounded]++)
      return fail("two blocks got the same allocation", launch);
  }
  return true;
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("pool gate: no GPU, skipped\n");
    return 0;
  }
  const unsigned maxBlocks = 20000;
  unsigned long long *dOffsets = nullptr;
  cudaMalloc(&dOffsets, sizeof(unsigned long long) * maxBlocks);
  const unsigned blockCounts[] = {1, 2, 7, 132, 1000, maxBlocks};
  const unsigned threadCounts[] = {32, 96, 256, 1024};
  unsigned launch = 0;
  for (unsigned round = 0; round < 50; ++round)
    for (unsigned blocks : blockCounts)
      for (unsigned threads : threadCounts) {
        unsigned bytes = 16 + (round * 7 + threads) % 200;
        allocateOncePerBlock<<<blocks, threads>>>(bytes, dOffsets);
        if (!checkLaunch(launch++, blocks, bytes, dOffsets))
          return 1;
      }
  // Back to back, without a check in between: each launch still starts empty.
  for (unsigned i = 0; i < 200; ++i)
    allocateOncePerBlock<<<blockCounts[i % 6], 128>>>(48, dOffsets);
  if (!checkLaunch(launch, blockCounts[199 % 6], 48, dOffsets))
    return 1;
  std::printf("pool gate: all checks passed (%u launches)\n", launch + 200);
  return 0;
}

// GPU check of runtime/include/launchopt/packing.cuh: lanes that call
// runTogether together run every thread of every lane's child exactly once,
// with the block and thread indices, block and grid that the serial loop
// would give it; a guard on the linear x index ends a child where it says;
// lanes that diverge before the call, lanes alone, and children of no
// thread all work; each lane sees, after the call, its whole child's writes.
//
//   nvcc -arch=sm_90 -std=c++17 -I runtime/include test/gpu/packing_runtime.cu \
//        -o packing_runtime && ./packing_runtime
//
// Every group pools its children (a pooled round costs nothing more:
// LAUNCHOPT_PACKED_ROUND_COST 0) unless the build says otherwise (the
// default cost, where groups of children alike in size run serially).
//
// Prints "packing runtime: all checks passed" and exits 0, or names the
// first failed check and exits 1; without a GPU it says so and exits 0.
#ifndef LAUNCHOPT_PACKED_ROUND_COST
#define LAUNCHOPT_PACKED_ROUND_COST 0
#endif
#include <launchopt/packing.cuh>
#include <cstdio>
#include <vector>

namespace {

constexpr unsigned Parents = 4096;
constexpr unsigned MaxChildThreads = 96; // within a child: slot = parent * MaxChildThreads + local

__device__ unsigned failures;

// The shape of parent p's child in round r: sizes from 0 to 96 threads, one-,
// two- and three-dimensional.
__host__ __device__ void childShape(unsigned p, unsigned round, dim3 *grid, dim3 *block) {
  const unsigned h = (p * 2654435761u) ^ (round * 40503u);
  switch (h % 4) {
  case 0: *grid = dim3(h / 4 % 4); *block = dim3(h / 16 % 24 + 1); break;  // up to 3 x 24
  case 1: *grid = dim3(1); *block = dim3(h / 4 % 7 + 1, h / 32 % 3 + 1); break;
  case 2: *grid = dim3(h / 4 % 2 + 1, 2, 1); *block = dim3(h / 8 % 4 + 1, 1, h / 32 % 3 + 1); break;
  default: *grid = dim3(h / 4 % 3 + 1); *block = dim3(32); break;  // a guard ends it
  }
}

// Where the guard of case 3 ends parent p's child (every thread from it on).
__host__ __device__ unsigned guardEnd(unsigned p) { return p % 50; }

__device__ unsigned linearIndex(uint3 b, uint3 t, dim3 bd, dim3 gd) {
  const unsigned blockThreads = bd.x * bd.y * bd.z;
  const unsigned block = b.x + gd.x * (b.y + gd.y * b.z);
  return block * blockThreads + t.x + bd.x * (t.y + bd.y * t.z);
}

// Each parent thread in the given lanes runs its child through runTogether
// (or the serial loop when it answers false), each child thread marks its
// slot and checks its geometry; the parent then reads its child's marks.
__global__ void runChildren(unsigned *marks, unsigned round, unsigned laneMask, bool *usedPacking) {
  const unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= Parents || !((laneMask >> (threadIdx.x % 32)) & 1u))
    return;
  dim3 grid, block;
  childShape(p, round, &grid, &block);
  const bool guarded = (p * 2654435761u ^ round * 40503u) % 4 == 3;
  unsigned *mine = marks + p * MaxChildThreads;
  const unsigned expectedGrid = grid.x, expectedBlock = block.x;
  auto runThread = [=](uint3 b, uint3 t, dim3 bd, dim3 gd) {
    if (gd.x != expectedGrid || bd.x != expectedBlock || b.x >= gd.x || t.x >= bd.x ||
        b.y >= gd.y || b.z >= gd.z || t.y >= bd.y || t.z >= bd.z)
      atomicAdd(&failures, 1u);
    const unsigned i = linearIndex(b, t, bd, gd);
    if (guarded && i >= guardEnd(p))
      return;
    atomicAdd(&mine[i], 1u);
  };
  bool packed;
  if (guarded)
    packed = launchopt::packing::runTogether(grid, block, runThread,
                                             [=](uint3 b, uint3 t, dim3 bd, dim3 gd) {
                                               return linearIndex(b, t, bd, gd) >= guardEnd(p);
                                             },
                                             8);
  else
    packed = launchopt::packing::runTogether(grid, block, runThread, nullptr, 0);
  if (!packed)
    for (unsigned bz = 0; bz < grid.z; ++bz)
      for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx)
          for (unsigned tz = 0; tz < block.z; ++tz)
            for (unsigned ty = 0; ty < block.y; ++ty)
              for (unsigned tx = 0; tx < block.x; ++tx)
                runThread(make_uint3(bx, by, bz), make_uint3(tx, ty, tz), block, grid);
  else
    *usedPacking = true;
  // The whole child has run, whichever lanes ran it.
  const unsigned all = grid.x * grid.y * grid.z * block.x * block.y * block.z;
  const unsigned expected = guarded && guardEnd(p) < all ? guardEnd(p) : all;
  for (unsigned i = 0; i < MaxChildThreads; ++i) {
    const unsigned seen = *(volatile unsigned *)&mine[i];
    if (seen != (i < expected ? 1u : 0u))
      atomicAdd(&failures, 1u);
  }
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("packing runtime: no GPU, check skipped\n");
    return 0;
  }
  unsigned *marks = nullptr;
  bool *usedPacking = nullptr;
  cudaMalloc(&marks, sizeof(unsigned) * Parents * MaxChildThreads);
  cudaMallocManaged(&usedPacking, sizeof(bool));
  *usedPacking = false;
  // Every lane, every other lane, one lane in four, lanes alone.
  const unsigned laneMasks[] = {0xffffffffu, 0x55555555u, 0x11111111u, 0x00000001u, 0x80000000u,
                                0xf0f0ff00u};
  unsigned round = 0;
  for (unsigned laneMask : laneMasks)
    for (unsigned repeat = 0; repeat < 4; ++repeat, ++round) {
      cudaMemset(marks, 0, sizeof(unsigned) * Parents * MaxChildThreads);
      runChildren<<<Parents / 128, 128>>>(marks, round, laneMask, usedPacking);
      if (cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("packing runtime: FAILED: kernel error %s (lane mask %08x)\n",
                    cudaGetErrorString(cudaGetLastError()), laneMask);
        return 1;
      }
      unsigned failed = 0;
      cudaMemcpyFromSymbol(&failed, failures, sizeof failed);
      if (failed) {
        std::printf("packing runtime: FAILED: %u wrong child threads (lane mask %08x, round %u)\n",
                    failed, laneMask, round);
        return 1;
      }
    }
  if (!*usedPacking) {
    std::printf("packing runtime: FAILED: no lane ran its child packed\n");
    return 1;
  }
  std::printf("packing runtime: all checks passed (%u rounds)\n", round);
  return 0;
}

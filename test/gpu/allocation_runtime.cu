// GPU check of runtime/include/launchopt/allocation.cuh: pieces of warp,
// block and single allocations do not overlap and keep their contents;
// groupFree returns every group's block (a leak would exhaust the small heap
// over the rounds); zero sizes answer like malloc(0) / cudaMalloc(&p, 0); a
// request too big for the heap fails as the original would.
//
//   nvcc -arch=sm_90 -rdc=true -std=c++17 -I runtime/include \
//        test/gpu/allocation_runtime.cu -lcudadevrt -o allocation_runtime && ./allocation_runtime
//
// Prints "allocation runtime: all checks passed" and exits 0, or names the
// first failed check and exits 1; without a GPU it says so and exits 0.
#include <launchopt/allocation.cuh>
#include <cstdio>

namespace {

__device__ unsigned failures;
__device__ unsigned zeroMismatches;

__device__ size_t sizeOf(unsigned thread, unsigned round) {
  return ((thread * 37u + round * 11u) % 23u) * 12u; // some zero, most not 16-aligned
}

// mode 0: warp, 1: block, 2: single, 3: warp in a divergent branch, and the
// cudaMalloc forms as 4..6. Each thread fills its piece, the block checks
// them after a barrier, then frees.
__global__ void allocateFillFree(int mode, unsigned round) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  size_t bytes = sizeOf(t, round);
  unsigned char *p = nullptr;
  switch (mode) {
  case 0: p = static_cast<unsigned char *>(launchopt::warpMalloc(bytes)); break;
  case 1: p = static_cast<unsigned char *>(launchopt::blockMalloc(bytes)); break;
  case 2: p = static_cast<unsigned char *>(launchopt::singleMalloc(bytes)); break;
  case 3:
    if (t % 3 != 0)
      p = static_cast<unsigned char *>(launchopt::warpMalloc(bytes));
    break;
  case 4: launchopt::warpCudaMalloc(reinterpret_cast<void **>(&p), bytes); break;
  case 5: launchopt::blockCudaMalloc(reinterpret_cast<void **>(&p), bytes); break;
  default: launchopt::singleCudaMalloc(reinterpret_cast<void **>(&p), bytes); break;
  }
  bool skipped = mode == 3 && t % 3 == 0;
  if (skipped)
    bytes = 0;
  else if (bytes != 0 && (p == nullptr || reinterpret_cast<size_t>(p) % 16 != 0))
    atomicAdd(&failures, 1u);
  if (bytes == 0 && !skipped && mode < 4) {
    void *original = malloc(0);
    if ((original == nullptr) != (p == nullptr))
      atomicAdd(&zeroMismatches, 1u);
    free(original);
  }
  if (p)
    for (size_t i = 0; i < bytes; ++i)
      p[i] = static_cast<unsigned char>(t + i);
  __syncthreads();
  if (p)
    for (size_t i = 0; i < bytes; ++i)
      if (p[i] != static_cast<unsigned char>(t + i)) {
        atomicAdd(&failures, 1u);
        break;
      }
  __syncthreads();
  if (mode >= 4)
    launchopt::groupCudaFree(p);
  else
    launchopt::groupFree(p);
}

// A request larger than the heap: null / cudaErrorMemoryAllocation, for a
// thread alone and inside a warp whose other pieces still succeed.
__global__ void tooBig(size_t huge) {
  size_t bytes = threadIdx.x == 5 ? huge : 64;
  void *p = launchopt::warpMalloc(bytes);
  if ((threadIdx.x == 5) != (p == nullptr))
    atomicAdd(&failures, 1u);
  launchopt::groupFree(p);
  void *q = reinterpret_cast<void *>(1);
  cudaError_t status = launchopt::warpCudaMalloc(&q, bytes);
  if ((threadIdx.x == 5) != (status == cudaErrorMemoryAllocation))
    atomicAdd(&failures, 1u);
  if (status == cudaSuccess)
    launchopt::groupCudaFree(q);
}

bool check(const char *what) {
  cudaError_t e = cudaDeviceSynchronize();
  unsigned f = 0;
  cudaMemcpyFromSymbol(&f, failures, sizeof f);
  if (e != cudaSuccess || f != 0) {
    std::printf("FAILED: %s (%s, %u bad pieces)\n", what, cudaGetErrorString(e), f);
    return false;
  }
  return true;
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU on this machine: allocation runtime check skipped\n");
    return 0;
  }
  // 8 MiB of heap: one round needs about 2 MiB, so 200 rounds without the
  // groups going back to the heap would fail.
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t(8) << 20);
  const char *names[] = {"warpMalloc",     "blockMalloc",     "singleMalloc",
                         "warpMalloc (divergent)", "warpCudaMalloc", "blockCudaMalloc",
                         "singleCudaMalloc"};
  for (int mode = 0; mode < 7; ++mode)
    for (unsigned round = 0; round < 200; ++round) {
      allocateFillFree<<<64, 96>>>(mode, round);
      if (!check(names[mode]))
        return 1;
    }
  tooBig<<<1, 32>>>(size_t(1) << 40);
  if (!check("request larger than the heap"))
    return 1;
  unsigned z = 0;
  cudaMemcpyFromSymbol(&z, zeroMismatches, sizeof z);
  if (z != 0) {
    std::printf("FAILED: %u zero-size requests answered unlike malloc(0)\n", z);
    return 1;
  }
  std::printf("allocation runtime: all checks passed\n");
  return 0;
}

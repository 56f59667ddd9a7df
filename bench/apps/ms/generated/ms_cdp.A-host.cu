// Mandelbrot by Mariani–Silver subdivision, naive CUDA dynamic parallelism:
// a block per tile evaluates the tile's border; a uniform border fills the
// tile, otherwise thread 0 launches a child grid of kSubdiv x kSubdiv blocks,
// one per sub-tile, until tiles reach kMinSize or kMaxDepth.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kInitTiles = 32;  // initial grid: kInitTiles x kInitTiles tiles
constexpr int kSubdiv = 4;
constexpr int kMinSize = 32;
constexpr int kMaxDepth = 4;
constexpr int kBlockSide = 16;

__device__ unsigned int ms_failed_launches;

// Dwell shared by the whole border, or -1 if it is not uniform.
__device__ int ms_border_dwell(int w, int h, int max_dwell, int x0, int y0, int size) {
  __shared__ int common;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x, nthreads = blockDim.x * blockDim.y;
  if (tid == 0) common = -2;
  __syncthreads();
  for (int k = tid; k < 4 * size; k += nthreads) {
    int side = k / size, p = k % size;
    int x = side == 0 ? x0 + p : side == 1 ? x0 + size - 1 : side == 2 ? x0 + p : x0;
    int y = side == 0 ? y0 : side == 1 ? y0 + p : side == 2 ? y0 + size - 1 : y0 + p;
    int d = ms_pixel_dwell(w, h, max_dwell, x, y);
    int old = atomicCAS(&common, -2, d);
    if (old != -2 && old != d) atomicExch(&common, -1);
  }
  __syncthreads();
  int result = common;
  __syncthreads();
  return result;
}

__global__ void ms_tile(int w, int h, int max_dwell, int* dwells, int x_origin, int y_origin, int size, int depth) {
  const int x0 = x_origin + blockIdx.x * size, y0 = y_origin + blockIdx.y * size;
  const int common = ms_border_dwell(w, h, max_dwell, x0, y0, size);
  if (common >= 0) {
    for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
      for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x) dwells[y * w + x] = common;
  } else if (depth + 1 < kMaxDepth && size / kSubdiv >= kMinSize) {
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      ms_tile<<<dim3(kSubdiv, kSubdiv), dim3(kBlockSide, kBlockSide)>>>(w, h, max_dwell, dwells, x0, y0,
                                                                        size / kSubdiv, depth + 1);
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&ms_failed_launches, 1u);
    }
  } else {
    for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
      for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x)
        dwells[y * w + x] = ms_pixel_dwell(w, h, max_dwell, x, y);
  }
}

}  // namespace

// Entry: width and height must be multiples of kInitTiles * kMinSize.
int ms_run(int width, int height, int max_dwell, int* d_dwells) {
  if (width != height || width % (kInitTiles * kMinSize) != 0) return -static_cast<int>(cudaErrorInvalidValue);
  size_t need = kInitTiles * kInitTiles * (1 + kSubdiv * kSubdiv * kMaxDepth) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(ms_failed_launches, &zero, sizeof zero);
  ms_tile<<<dim3(kInitTiles, kInitTiles), dim3(kBlockSide, kBlockSide)>>>(width, height, max_dwell, d_dwells, 0, 0,
                                                                          width / kInitTiles, 0);
  cudaMemcpyFromSymbol(&failed, ms_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

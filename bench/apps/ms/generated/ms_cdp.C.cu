// launchopt: each block of a coarsened child runs LAUNCHOPT_CFACTOR
// original blocks. Override with -DLAUNCHOPT_CFACTOR=<blocks>.
#ifndef LAUNCHOPT_CFACTOR
#define LAUNCHOPT_CFACTOR 4
#endif

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

// launchopt: 'ms_border_dwell' for copied kernel bodies: the built-in index variables
// are passed in and shadowed, as in the copy that calls it.
__device__ int __lo_sh_ms_border_dwell(int w, int h, int max_dwell, int x0, int y0, int size, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
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
}

__global__ void __lo_coarse_ms_tile(int w, int h, int max_dwell, int* dwells, int x_origin, int y_origin, int size, int depth, const dim3 __lo_originalGrid);

__global__ void ms_tile(int w, int h, int max_dwell, int* dwells, int x_origin, int y_origin, int size, int depth) {
  const int x0 = x_origin + blockIdx.x * size, y0 = y_origin + blockIdx.y * size;
  const int common = ms_border_dwell(w, h, max_dwell, x0, y0, size);
  if (common >= 0) {
    for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
      for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x) dwells[y * w + x] = common;
  } else if (depth + 1 < kMaxDepth && size / kSubdiv >= kMinSize) {
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      { // launchopt: coarsened launch of 'ms_tile'
        const dim3 __lo_cgrid1 = dim3(kSubdiv, kSubdiv);
        const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
        __lo_coarse_ms_tile<<<__lo_coarse1, dim3(kBlockSide, kBlockSide)>>>(w, h, max_dwell, dwells, x0, y0,
                                                                        size / kSubdiv, depth + 1, __lo_cgrid1);
      }
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&ms_failed_launches, 1u);
    }
  } else {
    for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
      for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x)
        dwells[y * w + x] = ms_pixel_dwell(w, h, max_dwell, x, y);
  }
}

// launchopt: 'ms_tile' coarsened: each block runs the original blocks
// blockIdx, blockIdx + gridDim, ... of the original grid; in the loop, locals shadow
// blockIdx and gridDim with the original block's values.
__global__ void __lo_coarse_ms_tile(int w, int h, int max_dwell, int* dwells, int x_origin, int y_origin, int size, int depth, const dim3 __lo_originalGrid)
{
  for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
    for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
      for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x) {
        { // one original block
          const uint3 blockIdx = make_uint3(__lo_bx, __lo_by, __lo_bz);
          const dim3 gridDim = __lo_originalGrid;
          (void)blockIdx; (void)gridDim;
          {
  const int x0 = x_origin + blockIdx.x * size, y0 = y_origin + blockIdx.y * size;
  const int common = __lo_sh_ms_border_dwell(w, h, max_dwell, x0, y0, size, blockIdx, threadIdx, blockDim, gridDim);
  if (common >= 0) {
    for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
      for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x) dwells[y * w + x] = common;
  } else if (depth + 1 < kMaxDepth && size / kSubdiv >= kMinSize) {
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      { // launchopt: coarsened launch of 'ms_tile'
        const dim3 __lo_cgrid1 = dim3(kSubdiv, kSubdiv);
        const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
        __lo_coarse_ms_tile<<<__lo_coarse1, dim3(kBlockSide, kBlockSide)>>>(w, h, max_dwell, dwells, x0, y0,
                                                                        size / kSubdiv, depth + 1, __lo_cgrid1);
      }
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&ms_failed_launches, 1u);
    }
  } else {
    for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
      for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x)
        dwells[y * w + x] = ms_pixel_dwell(w, h, max_dwell, x, y);
  }
}
        }
        __syncthreads();
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

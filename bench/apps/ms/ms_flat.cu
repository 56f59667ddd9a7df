// Mandelbrot by Mariani–Silver subdivision without dynamic parallelism: the
// block that would launch a child grid pushes the sub-tiles on a block-local
// stack and processes them itself.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kInitTiles = 32;
constexpr int kSubdiv = 4;
constexpr int kMinSize = 32;
constexpr int kMaxDepth = 4;
constexpr int kBlockSide = 16;
constexpr int kStack = 1 + kMaxDepth * (kSubdiv * kSubdiv - 1);

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

__global__ void ms_tiles(int w, int h, int max_dwell, int* dwells, int init_size) {
  __shared__ int stack_x[kStack], stack_y[kStack], stack_size[kStack], stack_depth[kStack];
  __shared__ int top;
  const bool leader = threadIdx.x == 0 && threadIdx.y == 0;
  if (leader) {
    stack_x[0] = blockIdx.x * init_size;
    stack_y[0] = blockIdx.y * init_size;
    stack_size[0] = init_size;
    stack_depth[0] = 0;
    top = 1;
  }
  __syncthreads();
  while (top > 0) {
    const int x0 = stack_x[top - 1], y0 = stack_y[top - 1], size = stack_size[top - 1], depth = stack_depth[top - 1];
    __syncthreads();
    if (leader) --top;
    const int common = ms_border_dwell(w, h, max_dwell, x0, y0, size);  // synchronises the block
    if (common >= 0) {
      for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
        for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x) dwells[y * w + x] = common;
    } else if (depth + 1 < kMaxDepth && size / kSubdiv >= kMinSize) {
      if (leader) {
        const int s = size / kSubdiv;
        for (int q = 0; q < kSubdiv * kSubdiv; ++q) {
          stack_x[top] = x0 + (q % kSubdiv) * s;
          stack_y[top] = y0 + (q / kSubdiv) * s;
          stack_size[top] = s;
          stack_depth[top] = depth + 1;
          ++top;
        }
      }
    } else {
      for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
        for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x)
          dwells[y * w + x] = ms_pixel_dwell(w, h, max_dwell, x, y);
    }
    __syncthreads();
  }
}

}  // namespace

int ms_run(int width, int height, int max_dwell, int* d_dwells) {
  if (width != height || width % (kInitTiles * kMinSize) != 0) return -static_cast<int>(cudaErrorInvalidValue);
  ms_tiles<<<dim3(kInitTiles, kInitTiles), dim3(kBlockSide, kBlockSide)>>>(width, height, max_dwell, d_dwells,
                                                                           width / kInitTiles);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

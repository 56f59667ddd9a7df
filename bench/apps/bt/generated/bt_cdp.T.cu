// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// (the report's serial-pooling says where the lanes of a warp share their
// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
#endif

// Bezier line tessellation, naive CUDA dynamic parallelism (after the CUDA
// sample used by KLAP and the DP-compiler paper): the parent thread of a line
// computes its point count from the curvature, allocates the line's vertex
// buffer with device-side cudaMalloc and launches a child grid with a thread
// per point. A second host-launched grid (which runs after the parent grid
// and all its children) sums and frees each line's buffer.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 64;
constexpr int kChildBlock = 32;

__device__ unsigned int bt_failed_launches;

__global__ void bt_tessellate(BezierLine line, int n, float2* points) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float t = static_cast<float>(k) / static_cast<float>(n - 1);
  float a = (1.0f - t) * (1.0f - t), b = 2.0f * t * (1.0f - t), c = t * t;
  points[k] = make_float2(a * line.x[0] + b * line.x[1] + c * line.x[2], a * line.y[0] + b * line.y[1] + c * line.y[2]);
}

// launchopt: one thread of 'bt_tessellate', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_thread_bt_tessellate(BezierLine line, int n, float2* points, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float t = static_cast<float>(k) / static_cast<float>(n - 1);
  float a = (1.0f - t) * (1.0f - t), b = 2.0f * t * (1.0f - t), c = t * t;
  points[k] = make_float2(a * line.x[0] + b * line.x[1] + c * line.x[2], a * line.y[0] + b * line.y[1] + c * line.y[2]);
}
}

// launchopt: whether the guard of 'bt_tessellate' ends this thread and every later one in x:
// (k >= n)
static __device__ bool __lo_thread_exit_bt_tessellate(BezierLine line, int n, float2* points, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  (void)k;
  return (k >= n);
}

// launchopt: every thread of a 'bt_tessellate' grid, one after another (serial version).
static __device__ void __lo_serial_bt_tessellate(BezierLine line, int n, float2* points, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_bt_tessellate(line, n, points, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_bt_tessellate(line, n, points, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void bt_lines(const BezierLine* lines, int num_lines, int* num_points, float2** buffers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_lines) return;
  BezierLine line = lines[i];
  int n = bt_num_points(line);
  num_points[i] = n;
  float2* points = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&points), sizeof(float2) * n) != cudaSuccess) {
    buffers[i] = nullptr;
    atomicAdd(&bt_failed_launches, 1u);
    return;
  }
  buffers[i] = points;
  { // launchopt: thresholded launch of 'bt_tessellate'
    const auto __lo_n1_x = (n);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      bt_tessellate<<<__lo_grid1, __lo_block1>>>(line, n, points);
    else
      __lo_serial_bt_tessellate(line, n, points, __lo_grid1, __lo_block1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&bt_failed_launches, 1u);
}

__global__ void bt_sum_and_free(int num_lines, const int* num_points, float2** buffers, float* sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_lines || buffers[i] == nullptr) return;
  float s = 0.0f;
  for (int k = 0; k < num_points[i]; ++k) s += buffers[i][k].x + buffers[i][k].y;
  sums[i] = s;
  cudaFree(buffers[i]);
}

}  // namespace

int bt_run(const BezierLine* d_lines, int num_lines, int* d_num_points, float* d_line_sums) {
  size_t need = static_cast<size_t>(num_lines) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  size_t heap = static_cast<size_t>(num_lines) * (sizeof(float2) * kBtMaxPoints + 256) * 2;
  if (cudaDeviceGetLimit(&have, cudaLimitMallocHeapSize) != cudaSuccess) return -1;
  if (have < heap && cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(bt_failed_launches, &zero, sizeof zero);
  float2** buffers = nullptr;
  cudaMalloc(&buffers, sizeof(float2*) * num_lines);
  const int blocks = (num_lines + kParentBlock - 1) / kParentBlock;
  bt_lines<<<blocks, kParentBlock>>>(d_lines, num_lines, d_num_points, buffers);
  bt_sum_and_free<<<blocks, kParentBlock>>>(num_lines, d_num_points, buffers, d_line_sums);
  cudaMemcpyFromSymbol(&failed, bt_failed_launches, sizeof failed);
  cudaFree(buffers);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

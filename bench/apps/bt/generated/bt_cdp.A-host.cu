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
  bt_tessellate<<<(n + kChildBlock - 1) / kChildBlock, kChildBlock>>>(line, n, points);
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

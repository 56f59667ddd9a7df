// Bezier line tessellation without dynamic parallelism: the parent thread of a
// line allocates its buffer and computes the points in a loop.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kBlock = 64;

__global__ void bt_lines(const BezierLine* lines, int num_lines, int* num_points, float2** buffers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_lines) return;
  BezierLine line = lines[i];
  int n = bt_num_points(line);
  num_points[i] = n;
  float2* points = static_cast<float2*>(malloc(sizeof(float2) * n));
  buffers[i] = points;
  if (points == nullptr) return;
  for (int k = 0; k < n; ++k) {
    float t = static_cast<float>(k) / static_cast<float>(n - 1);
    float a = (1.0f - t) * (1.0f - t), b = 2.0f * t * (1.0f - t), c = t * t;
    points[k] = make_float2(a * line.x[0] + b * line.x[1] + c * line.x[2], a * line.y[0] + b * line.y[1] + c * line.y[2]);
  }
}

__global__ void bt_sum_and_free(int num_lines, const int* num_points, float2** buffers, float* sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_lines || buffers[i] == nullptr) return;
  float s = 0.0f;
  for (int k = 0; k < num_points[i]; ++k) s += buffers[i][k].x + buffers[i][k].y;
  sums[i] = s;
  free(buffers[i]);
}

}  // namespace

int bt_run(const BezierLine* d_lines, int num_lines, int* d_num_points, float* d_line_sums) {
  size_t have = 0, heap = static_cast<size_t>(num_lines) * (sizeof(float2) * kBtMaxPoints + 256) * 2;
  if (cudaDeviceGetLimit(&have, cudaLimitMallocHeapSize) != cudaSuccess) return -1;
  if (have < heap && cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  float2** buffers = nullptr;
  cudaMalloc(&buffers, sizeof(float2*) * num_lines);
  const int blocks = (num_lines + kBlock - 1) / kBlock;
  bt_lines<<<blocks, kBlock>>>(d_lines, num_lines, d_num_points, buffers);
  bt_sum_and_free<<<blocks, kBlock>>>(num_lines, d_num_points, buffers, d_line_sums);
  cudaFree(buffers);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

// Mariani-Silver's shape: a region either is filled (its corners agree), or
// is split into four by a launch of itself, or is computed pixel by pixel:
// three launches in the branches of one if / else if / else. No thread makes
// two of them, so none is ordered after another.
// Usage: exclusive_branches <seed> <output file>
#include "common.cuh"

constexpr int kWidth = 1024;
constexpr int kTop = 64;

__host__ __device__ int valueAt(int x, int y, int a, int b) { return ((x / a) ^ (y / b)) & 3; }

__global__ void fillRegion(int *out, int x0, int y0, int v) {
  int x = x0 + blockIdx.x * blockDim.x + threadIdx.x, y = y0 + blockIdx.y;
  out[y * kWidth + x] = v;
}

__global__ void pixels(int *out, int x0, int y0, int a, int b) {
  int x = x0 + threadIdx.x, y = y0 + blockIdx.x;
  out[y * kWidth + x] = valueAt(x, y, a, b) + 4;
}

__global__ void region(int *out, int x0, int y0, int size, int a, int b) {
  int sx = x0 + blockIdx.x * size, sy = y0 + blockIdx.y * size;
  if (threadIdx.x != 0)
    return;
  int v = valueAt(sx, sy, a, b);
  bool same = valueAt(sx + size - 1, sy, a, b) == v && valueAt(sx, sy + size - 1, a, b) == v &&
              valueAt(sx + size - 1, sy + size - 1, a, b) == v;
  if (same) {
    fillRegion<<<dim3(size > 32 ? size / 32 : 1, size), size > 32 ? 32 : size>>>(out, sx, sy, v);
  } else if (size > 16) {
    region<<<dim3(2, 2), 32>>>(out, sx, sy, size / 2, a, b);
  } else {
    pixels<<<size, size>>>(out, sx, sy, a, b);
  }
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

void expected(std::vector<int> &image, int x0, int y0, int size, int a, int b) {
  int v = valueAt(x0, y0, a, b);
  if (valueAt(x0 + size - 1, y0, a, b) == v && valueAt(x0, y0 + size - 1, a, b) == v &&
      valueAt(x0 + size - 1, y0 + size - 1, a, b) == v) {
    for (int y = y0; y < y0 + size; ++y)
      for (int x = x0; x < x0 + size; ++x)
        image[y * kWidth + x] = v;
  } else if (size > 16) {
    for (int q = 0; q < 4; ++q)
      expected(image, x0 + (q & 1) * size / 2, y0 + (q >> 1) * size / 2, size / 2, a, b);
  } else {
    for (int y = y0; y < y0 + size; ++y)
      for (int x = x0; x < x0 + size; ++x)
        image[y * kWidth + x] = valueAt(x, y, a, b) + 4;
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  int a = 20 + (int)rng.below(60), b = 20 + (int)rng.below(60);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 14));
  int *dOut;
  CHECK(cudaMalloc(&dOut, sizeof(int) * kWidth * kWidth));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xFF, sizeof(int) * kWidth * kWidth));
    region<<<dim3(kWidth / kTop, kWidth / kTop), 32>>>(dOut, 0, 0, kTop, a, b);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kWidth * kWidth), expect(kWidth * kWidth, -1);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * out.size(), cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * out.size());
  for (int y = 0; y < kWidth; y += kTop)
    for (int x = 0; x < kWidth; x += kTop)
      expected(expect, x, y, kTop, a, b);
  int wrong = 0;
  for (size_t i = 0; i < out.size(); ++i)
    wrong += out[i] != expect[i];
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return launchFailures() == 0 && wrong == 0 ? 0 : 1;
}

// Mariani-Silver's full shape: a block per tile reduces the tile's range in
// shared memory behind barriers; thread 0 then launches one of three
// children: a fill of a uniform tile, the kernel itself on the launching
// block's shape for a mixed tile, or a per-pixel grid at the last level.
// Launch removal's persistent grid (T1/T2) records the three children in one
// queue, each record tagged with its child.
// Usage: tiles_three_children <seed> <output file>
#include "common.cuh"

constexpr int kSide = 1024;
constexpr int kTopTiles = 8;
constexpr int kSubdiv = 4;
constexpr int kMinTile = 8;
constexpr int kMaxDepth = 4;

__global__ void fillTile(int *out, int x0, int y0, int size, int value) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < size && y < size)
    out[(y0 + y) * kSide + x0 + x] = value;
}

__global__ void pixelTile(const int *img, int *out, int x0, int y0, int size, int depth) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < size)
    out[(y0 + y) * kSide + x0 + x] = -img[(y0 + y) * kSide + x0 + x] * 8 - depth;
}

__global__ void subdivide(const int *img, int *out, int x_origin, int y_origin, int size,
                          int depth) {
  __shared__ int lowest, highest;
  const int x0 = x_origin + blockIdx.x * size, y0 = y_origin + blockIdx.y * size;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid == 0) {
    lowest = INT_MAX;
    highest = INT_MIN;
  }
  __syncthreads();
  int lo = INT_MAX, hi = INT_MIN;
  for (int y = y0 + threadIdx.y; y < y0 + size; y += blockDim.y)
    for (int x = x0 + threadIdx.x; x < x0 + size; x += blockDim.x) {
      lo = min(lo, img[y * kSide + x]);
      hi = max(hi, img[y * kSide + x]);
    }
  atomicMin(&lowest, lo);
  atomicMax(&highest, hi);
  __syncthreads();
  const bool uniform = lowest == highest;
  const int value = lowest;
  __syncthreads();
  if (tid == 0) {
    if (uniform) {
      dim3 block(8, 8), grid((size + 7) / 8, (size + 7) / 8);
      fillTile<<<grid, block>>>(out, x0, y0, size, value * 8 + depth);
    } else if (depth + 1 < kMaxDepth && size / kSubdiv >= kMinTile) {
      dim3 block(blockDim.x, blockDim.y);
      subdivide<<<dim3(kSubdiv, kSubdiv), block>>>(img, out, x0, y0, size / kSubdiv, depth + 1);
    } else {
      pixelTile<<<dim3((size + 31) / 32, size), 32>>>(img, out, x0, y0, size, depth);
    }
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  // Random rectangles painted over a background: large uniform areas with
  // edges at arbitrary positions, and some noise, so recursion depth varies.
  std::vector<int> img(kSide * kSide, 0);
  for (int r = 0; r < 60; ++r) {
    int w = 8 + (int)rng.below(300), h = 8 + (int)rng.below(300);
    int x = (int)rng.below(kSide - w), y = (int)rng.below(kSide - h);
    int v = 1 + (int)rng.below(1000);
    for (int yy = y; yy < y + h; ++yy)
      for (int xx = x; xx < x + w; ++xx)
        img[yy * kSide + xx] = v;
  }
  for (int k = 0; k < 200; ++k)
    img[rng.below(kSide * kSide)] = (int)rng.below(1000);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  int *dImg, *dOut;
  CHECK(cudaMalloc(&dImg, sizeof(int) * img.size()));
  CHECK(cudaMalloc(&dOut, sizeof(int) * img.size()));
  CHECK(cudaMemcpy(dImg, img.data(), sizeof(int) * img.size(), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(int) * img.size()));
    subdivide<<<dim3(kTopTiles, kTopTiles), dim3(16, 16)>>>(dImg, dOut, 0, 0, kSide / kTopTiles, 0);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(img.size());
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * out.size(), cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * out.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

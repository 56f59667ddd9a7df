// Each parent thread owns a rectangular image region of skewed size and
// launches a 2D child grid of 16x16 blocks over it.
// Usage: regions2d <seed> <output file>
#include "common.cuh"

__device__ unsigned mix(unsigned v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  return v ^ (v >> 16);
}

__global__ void shadeRegion(const unsigned *input, unsigned inputSize, unsigned *out,
                            int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  unsigned left = input[(y * width + (x > 0 ? x - 1 : x)) % inputSize];
  unsigned here = input[(y * width + x) % inputSize];
  out[y * width + x] = mix(here ^ (left * 31u) ^ (unsigned)(x * 73856093) ^ (unsigned)(y * 19349663));
}

__global__ void shadeAll(const unsigned *input, unsigned inputSize, unsigned *image,
                         const int *offsets, const int *widths, const int *heights,
                         int regions) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= regions)
    return;
  int w = widths[r], h = heights[r];
  dim3 block(16, 16);
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  shadeRegion<<<grid, block, 0, cudaStreamFireAndForget>>>(input, inputSize, image + offsets[r],
                                                           w, h);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int regions = 1 << 15;
  std::vector<int> offsets(regions), widths(regions), heights(regions);
  int total = 0;
  for (int r = 0; r < regions; ++r) {
    bool big = rng.below(100) == 0;
    widths[r] = big ? 64 + (int)rng.below(448) : 1 + (int)rng.below(12);
    heights[r] = big ? 64 + (int)rng.below(448) : 1 + (int)rng.below(12);
    offsets[r] = total;
    total += widths[r] * heights[r];
  }
  const unsigned inputSize = 1u << 20;
  std::vector<unsigned> input(inputSize);
  for (unsigned &v : input)
    v = rng.next();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dIn, *dImage;
  int *dOff, *dW, *dH;
  CHECK(cudaMalloc(&dIn, sizeof(unsigned) * inputSize));
  CHECK(cudaMalloc(&dImage, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOff, sizeof(int) * regions));
  CHECK(cudaMalloc(&dW, sizeof(int) * regions));
  CHECK(cudaMalloc(&dH, sizeof(int) * regions));
  CHECK(cudaMemcpy(dIn, input.data(), sizeof(unsigned) * inputSize, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(int) * regions, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dW, widths.data(), sizeof(int) * regions, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dH, heights.data(), sizeof(int) * regions, cudaMemcpyHostToDevice));
  // Poisoned before every run so an element nobody wrote shows up.
  auto run = [&] {
    CHECK(cudaMemset(dImage, 0xAB, sizeof(unsigned) * total));
    shadeAll<<<(regions + 127) / 128, 128>>>(dIn, inputSize, dImage, dOff, dW, dH, regions);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> image(total);
  CHECK(cudaMemcpy(image.data(), dImage, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], image.data(), sizeof(unsigned) * total);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

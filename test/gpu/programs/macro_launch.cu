// Launches through a wrapper macro, as library code writes them: the macro
// is given the kernel (namespaced), the configuration and the arguments, and
// its body puts parentheses around the configuration. One site per parent
// thread with a child of varying size; a second site launches through a
// macro that writes exactly the launch it is given; a third gives the macro
// a template kernel with its arguments written (a launch Clang 19 drops
// unless launchopt recovers it).
// Usage: macro_launch <seed> <output file>
#include "common.cuh"

#define LAUNCH_KERNEL(kernel, blocks, threads, ...) kernel<<<(blocks), (threads)>>>(__VA_ARGS__)
#define PASS_THROUGH(...) __VA_ARGS__

namespace ops {
__global__ void scaleRow(const float *in, float *out, unsigned begin, unsigned length, float f) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < length)
    out[begin + i] = in[begin + i] * f;
}

template <typename T>
__global__ void offsetRow(T *out, unsigned begin, unsigned length, T by) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < length)
    out[begin + i] += by;
}

__global__ void countRow(const float *in, unsigned begin, unsigned length, unsigned *above) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < length && in[begin + i] > 64.0f)
    atomicAdd(above, 1u);
}
} // namespace ops

__global__ void rows(const float *in, float *out, const unsigned *offsets, unsigned count,
                     unsigned *above) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= count)
    return;
  unsigned begin = offsets[r], length = offsets[r + 1] - offsets[r];
  if (length == 0)
    return;
  LAUNCH_KERNEL(ops::scaleRow, (length + 63) / 64, 64, in, out, begin, length, 0.5f);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
  PASS_THROUGH(ops::countRow<<<(length + 127) / 128, 128>>>(in, begin, length, above + r));
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

// Adds to the rows scaled by `rows`, in a later grid of the same stream.
__global__ void offsetRows(float *out, const unsigned *offsets, unsigned count) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= count)
    return;
  unsigned begin = offsets[r], length = offsets[r + 1] - offsets[r];
  if (length == 0)
    return;
  LAUNCH_KERNEL(ops::offsetRow<float>, (length + 31) / 32, 32, out, begin, length, float(r % 7));
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const unsigned count = 2000;
  std::vector<unsigned> offsets(count + 1, 0);
  for (unsigned r = 0; r < count; ++r)
    offsets[r + 1] = offsets[r] + (rng.below(8) == 0 ? 500 + rng.below(4000) : rng.below(100));
  unsigned total = offsets[count];
  std::vector<float> in(total);
  for (float &v : in)
    v = float(rng.below(1000)) / 8.0f;
  float *dIn, *dOut;
  unsigned *dOffsets, *dAbove;
  CHECK(cudaMalloc(&dIn, sizeof(float) * total));
  CHECK(cudaMalloc(&dOut, sizeof(float) * total));
  CHECK(cudaMalloc(&dOffsets, sizeof(unsigned) * (count + 1)));
  CHECK(cudaMalloc(&dAbove, sizeof(unsigned) * count));
  CHECK(cudaMemcpy(dIn, in.data(), sizeof(float) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(unsigned) * (count + 1),
                   cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0, sizeof(float) * total));
    CHECK(cudaMemset(dAbove, 0, sizeof(unsigned) * count));
    rows<<<(count + 127) / 128, 128>>>(dIn, dOut, dOffsets, count, dAbove);
    CHECK(cudaGetLastError());
    offsetRows<<<(count + 127) / 128, 128>>>(dOut, dOffsets, count);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> out(total + count);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(float) * total, cudaMemcpyDeviceToHost));
  std::vector<unsigned> above(count);
  CHECK(cudaMemcpy(above.data(), dAbove, sizeof(unsigned) * count, cudaMemcpyDeviceToHost));
  for (unsigned r = 0; r < count; ++r)
    out[total + r] = float(above[r]);
  writeOutput(argv[2], out.data(), sizeof(float) * out.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
}

// Per-segment block reductions launched from the first thread of each parent
// block, in the shapes library code uses: the segment travels as a struct by
// value, the child reads through const __restrict__ pointers with __ldg and
// sums in dynamic shared memory behind barriers, one atomicAdd per child
// block.
// Usage: struct_segments <seed> <output file>
#include "common.cuh"

struct Segment {
  const float *values;
  unsigned begin;
  unsigned length;
  unsigned slot;
};

__global__ void segmentSum(Segment seg, float scale, float *__restrict__ sums) {
  extern __shared__ float partial[];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < seg.length ? __ldg(seg.values + seg.begin + i) * scale : 0.0f;
  partial[threadIdx.x] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(&sums[seg.slot], partial[0]);
}

__global__ void sumSegments(const float *__restrict__ values,
                            const unsigned *__restrict__ offsets, unsigned segments,
                            float scale, float *__restrict__ sums) {
  unsigned s = blockIdx.x;
  if (s >= segments || threadIdx.x != 0)
    return;
  Segment seg{values, offsets[s], offsets[s + 1] - offsets[s], s};
  if (seg.length == 0)
    return;
  const unsigned threads = 128;
  segmentSum<<<(seg.length + threads - 1) / threads, threads, threads * sizeof(float)>>>(
      seg, scale, sums);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const unsigned segments = 3000;
  std::vector<unsigned> offsets(segments + 1, 0);
  for (unsigned s = 0; s < segments; ++s)
    offsets[s + 1] = offsets[s] + (rng.below(16) == 0 ? 2000 + rng.below(20000) : rng.below(200));
  unsigned total = offsets[segments];
  std::vector<float> values(total);
  for (float &v : values)
    v = float(rng.below(1000)) / 8.0f; // exact in float: sums do not depend on order
  float *dValues, *dSums;
  unsigned *dOffsets;
  CHECK(cudaMalloc(&dValues, sizeof(float) * total));
  CHECK(cudaMalloc(&dSums, sizeof(float) * segments));
  CHECK(cudaMalloc(&dOffsets, sizeof(unsigned) * (segments + 1)));
  CHECK(cudaMemcpy(dValues, values.data(), sizeof(float) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(unsigned) * (segments + 1),
                   cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  auto run = [&] {
    CHECK(cudaMemset(dSums, 0, sizeof(float) * segments));
    sumSegments<<<segments, 32>>>(dValues, dOffsets, segments, 0.5f, dSums);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> out(segments);
  CHECK(cudaMemcpy(out.data(), dSums, sizeof(float) * segments, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(float) * segments);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
}

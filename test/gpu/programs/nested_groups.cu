// Two levels of launches (nested_segments without templates): a parent
// thread per group launches a child grid over the group's segments; each
// child thread launches a grandchild grid over its segment's elements.
// Launch removal's persistent grid of the parent records both levels in
// one queue: its copies of the child record the grandchild launches.
// Usage: nested_groups <seed> <output file>
#include "common.cuh"

__global__ void scaleElements(const unsigned *in, unsigned *out, int begin, int length, unsigned factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < length)
    out[begin + i] = in[begin + i] * factor + i;
}

__global__ void visitSegments(const unsigned *in, unsigned *out, const int *segmentStart, int firstSegment,
                              int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  int seg = firstSegment + s;
  int begin = segmentStart[seg];
  int length = segmentStart[seg + 1] - begin;
  scaleElements<<<(length - 1) / 64 + 1, 64, 0, cudaStreamFireAndForget>>>(
      in, out, begin, length, (unsigned)(seg % 7 + 1));
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

__global__ void visitGroups(const unsigned *in, unsigned *out, const int *segmentStart, const int *groupStart,
                            int groups) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= groups)
    return;
  int first = groupStart[g];
  int count = groupStart[g + 1] - first;
  if (count == 0)
    return;
  visitSegments<<<(count + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(in, out, segmentStart,
                                                                           first, count);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int groups = 4096;
  std::vector<int> groupStart(groups + 1, 0), segmentStart(1, 0);
  for (int g = 0; g < groups; ++g) {
    int count = rng.below(50) == 0 ? 64 + (int)rng.below(512) : (int)rng.below(6);
    for (int s = 0; s < count; ++s) {
      int length = rng.below(40) == 0 ? 256 + (int)rng.below(4096) : 1 + (int)rng.below(16);
      segmentStart.push_back(segmentStart.back() + length);
    }
    groupStart[g + 1] = groupStart[g] + count;
  }
  int elements = segmentStart.back();
  std::vector<unsigned> in(elements);
  for (unsigned &v : in)
    v = rng.next();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 18));
  unsigned *dIn, *dOut;
  int *dSeg, *dGroup;
  CHECK(cudaMalloc(&dIn, sizeof(unsigned) * elements));
  CHECK(cudaMalloc(&dOut, sizeof(unsigned) * elements));
  CHECK(cudaMalloc(&dSeg, sizeof(int) * segmentStart.size()));
  CHECK(cudaMalloc(&dGroup, sizeof(int) * groupStart.size()));
  CHECK(cudaMemcpy(dIn, in.data(), sizeof(unsigned) * elements, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dSeg, segmentStart.data(), sizeof(int) * segmentStart.size(),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dGroup, groupStart.data(), sizeof(int) * groupStart.size(),
                   cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(unsigned) * elements));
    visitGroups<<<(groups + 127) / 128, 128>>>(dIn, dOut, dSeg, dGroup, groups);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(elements);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(unsigned) * elements, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * elements);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// A child kernel defined in a header (kern::scaleSegment), launched from
// this file with skewed sizes, and a header helper that launches another:
// thresholding runs the small children of the header's kernel serially from
// a copy written after the #include. Usage: header_child <seed> <output file>
#include "common.cuh"
#include "header_child.cuh"

__global__ void scaleAll(const unsigned *in, unsigned *out, unsigned *marks,
                         const unsigned *offsets, const unsigned *lengths, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned n = lengths[s];
  kern::scaleSegment<unsigned><<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(
      in + offsets[s], out + offsets[s], n, (unsigned)(s % 5 + 1));
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
  if (s % 64 == 0)
    kern::markLater(marks, (unsigned)s);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 1 << 14;
  std::vector<unsigned> offsets(segments), lengths(segments);
  unsigned total = 0;
  for (int s = 0; s < segments; ++s) {
    lengths[s] = rng.below(100) == 0 ? 1024 + rng.below(8192) : 1 + rng.below(100);
    offsets[s] = total;
    total += lengths[s];
  }
  std::vector<unsigned> input(total);
  for (unsigned &v : input)
    v = rng.next();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dIn, *dOut, *dOff, *dLen;
  CHECK(cudaMalloc(&dIn, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOut, sizeof(unsigned) * (total + segments)));
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * segments));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * segments));
  CHECK(cudaMemcpy(dIn, input.data(), sizeof(unsigned) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * segments, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(unsigned) * (total + segments)));
    scaleAll<<<(segments + 127) / 128, 128>>>(dIn, dOut, dOut + total, dOff, dLen, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total + segments);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(unsigned) * out.size(), cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * out.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// Children whose template parameters have defaults, launched with the
// defaults left out from a plain parent and from a template parent, and a
// child of another namespace declared before its parent and defined after
// it. Segment lengths are skewed, so most children are small. A transformed
// program that named a different default, or lost a child, writes different
// values. Usage: template_defaults <seed> <output file>
#include "common.cuh"

namespace kern {
template <typename T, unsigned Stride = 3u, typename Acc = unsigned long long>
__global__ void mixSegment(const T *in, T *out, unsigned n, T salt) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Acc wide = (Acc)in[(i * Stride) % n] * 2654435761ull + salt;
    out[i] = (T)(wide ^ (wide >> 29));
  }
}

__global__ void markSegment(unsigned *marks, unsigned s, unsigned n);
} // namespace kern

__global__ void mixAll(const unsigned *in, unsigned *out, const unsigned *offsets,
                       const unsigned *lengths, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  unsigned n = lengths[s];
  if (n > 0)
    kern::mixSegment<unsigned><<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(
        in + offsets[s], out + offsets[s], n, (unsigned)s);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

template <typename T>
__global__ void markAll(unsigned *marks, const unsigned *lengths, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  kern::markSegment<<<1, 32, 0, cudaStreamFireAndForget>>>(marks, (unsigned)s, lengths[s]);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

namespace kern {
__global__ void markSegment(unsigned *marks, unsigned s, unsigned n) {
  if (threadIdx.x == 0)
    marks[s] = s * 2654435761u + n;
}
} // namespace kern

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
    mixAll<<<(segments + 127) / 128, 128>>>(dIn, dOut, dOff, dLen, segments);
    markAll<float><<<(segments + 127) / 128, 128>>>(dOut + total, dLen, segments);
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

// Template children launched from a non-template parent with their template
// arguments left to deduction (`scaleInto<<<...>>>(in, out, n, factor)`),
// which Clang 19 drops and launchopt recovers from the arguments' types.
// Each parent thread owns a segment of skewed length.
// Usage: template_deduced <seed> <output file>
#include "common.cuh"

template <typename T, typename U>
__global__ void scaleInto(const T *in, U *out, unsigned n, U factor) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = U(in[i]) * factor + U(threadIdx.x % 5);
}

template <typename T> __global__ void offsetBy(T *values, unsigned n, T amount) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    values[i] += amount;
}

__global__ void segments(const unsigned *in, unsigned long long *out, const unsigned *offsets,
                         const unsigned *lengths, int count) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= count)
    return;
  unsigned n = lengths[s];
  unsigned long long factor = s % 7 + 1;
  scaleInto<<<(n + 127) / 128, 128>>>(in + offsets[s], out + offsets[s], n, factor);
  offsetBy<<<(n + 63) / 64, 64>>>(out + offsets[s], n, (unsigned long long)s);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int count = 1 << 14;
  std::vector<unsigned> offsets(count), lengths(count);
  unsigned total = 0;
  for (int s = 0; s < count; ++s) {
    lengths[s] = rng.below(64) == 0 ? 256 + rng.below(4096) : 1 + rng.below(48);
    offsets[s] = total;
    total += lengths[s];
  }
  std::vector<unsigned> input(total);
  for (unsigned &v : input)
    v = rng.next() % 100000;
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dIn, *dOff, *dLen;
  unsigned long long *dOut;
  CHECK(cudaMalloc(&dIn, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOut, sizeof(unsigned long long) * total));
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * count));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * count));
  CHECK(cudaMemcpy(dIn, input.data(), sizeof(unsigned) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * count, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * count, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0, sizeof(unsigned long long) * total));
    segments<<<(count + 127) / 128, 128>>>(dIn, dOut, dOff, dLen, count);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> out(total);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(unsigned long long) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned long long) * total);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

// Launches whose template arguments name the parent's locals: a constant of
// the body (`unrolled<kPer>`) and a local alias (`unrolled<Step::value>`).
// Generated functions outside the parent spell the launched specialization
// (`unrolled<4>`); each segment's items are scaled by a factor that depends
// on which launch took it, so a launch of the wrong specialization shows.
// Usage: local_template_args <seed> <output file>
#include "common.cuh"

#include <type_traits>

constexpr int kSegments = 3000;

template <int N>
__global__ void unrolled(const int *__restrict__ in, int *__restrict__ out, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * N;
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (base + k < n)
      out[base + k] = in[base + k] * (N + 1);
}

__global__ void segments(const int *in, int *out, const int *offsets, int count) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= count)
    return;
  const int begin = offsets[s], n = offsets[s + 1] - begin;
  constexpr int kPer = 4;
  using Step = std::integral_constant<int, 2>;
  if (n > 1024)
    unrolled<kPer><<<(n + 64 * kPer - 1) / (64 * kPer), 64>>>(in + begin, out + begin, n);
  else if (n > 96)
    unrolled<Step::value><<<(n + 127) / 128, 64>>>(in + begin, out + begin, n);
  else if (n > 0)
    unrolled<1><<<(n + 63) / 64, 64>>>(in + begin, out + begin, n);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> offsets(kSegments + 1, 0);
  for (int s = 0; s < kSegments; ++s)
    offsets[s + 1] = offsets[s] + (rng.below(8) == 0 ? (int)rng.below(5000) : (int)rng.below(200));
  int total = offsets[kSegments];
  std::vector<int> in(total);
  for (int &v : in)
    v = (int)rng.below(1000);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  int *dIn, *dOut, *dOffsets;
  CHECK(cudaMalloc(&dIn, sizeof(int) * (total + 1)));
  CHECK(cudaMalloc(&dOut, sizeof(int) * (total + 1)));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kSegments + 1)));
  CHECK(cudaMemcpy(dIn, in.data(), sizeof(int) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kSegments + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0, sizeof(int) * (total + 1)));
    segments<<<(kSegments + 127) / 128, 128>>>(dIn, dOut, dOffsets, kSegments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(5, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(total);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * out.size());
  int wrong = 0;
  for (int s = 0; s < kSegments; ++s) {
    int n = offsets[s + 1] - offsets[s];
    int factor = n > 1024 ? 5 : n > 96 ? 3 : 2;
    for (int i = offsets[s]; i < offsets[s + 1]; ++i)
      wrong += out[i] != in[i] * factor;
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

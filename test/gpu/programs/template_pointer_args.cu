// A template parent launches template children whose template argument is
// left to deduction from pointer arithmetic on the parent's template operands
// (`out + begin`, `&sums[s]`); the children have a default template
// argument, so every generated copy must name it.
// Usage: template_pointer_args <seed> <output file>
#include "common.cuh"

constexpr int kSegments = 2000;

template <typename T = float>
__global__ void scaleSegment(const T *in, T *out, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * factor;
}

template <typename T = float>
__global__ void sumSegment(const T *in, int n, T *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, in[i]);
}

template <typename T>
__global__ void segments(const T *in, T *out, T *sums, const int *offsets, int count) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= count)
    return;
  int begin = offsets[s], n = offsets[s + 1] - begin;
  sums[s] = T(0);
  if (n == 0)
    return;
  scaleSegment<<<(n + 63) / 64, 64>>>(in + begin, out + begin, n, T(s % 5 + 1));
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
  sumSegment<<<(n + 63) / 64, 64>>>(in + begin, n, &sums[s]);
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
    offsets[s + 1] = offsets[s] + (rng.below(10) == 0 ? (int)rng.below(3000) : (int)rng.below(60));
  int total = offsets[kSegments];
  std::vector<double> in(total);
  for (double &v : in)
    v = (double)rng.below(64); // integer-valued: every order of the sums is exact
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  double *dIn, *dOut, *dSums;
  int *dOffsets;
  CHECK(cudaMalloc(&dIn, sizeof(double) * (total + 1)));
  CHECK(cudaMalloc(&dOut, sizeof(double) * (total + 1)));
  CHECK(cudaMalloc(&dSums, sizeof(double) * kSegments));
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kSegments + 1)));
  CHECK(cudaMemcpy(dIn, in.data(), sizeof(double) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kSegments + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0, sizeof(double) * (total + 1)));
    segments<<<(kSegments + 127) / 128, 128>>>(dIn, dOut, dSums, dOffsets, kSegments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(5, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<double> out(total), sums(kSegments);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(double) * total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums.data(), dSums, sizeof(double) * kSegments, cudaMemcpyDeviceToHost));
  std::vector<double> output(out);
  output.insert(output.end(), sums.begin(), sums.end());
  writeOutput(argv[2], output.data(), sizeof(double) * output.size());
  int wrong = 0;
  for (int s = 0; s < kSegments; ++s) {
    double sum = 0;
    for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
      sum += in[i];
      wrong += out[i] != in[i] * (s % 5 + 1);
    }
    wrong += sums[s] != sum;
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

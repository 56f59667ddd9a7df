// Single-block steps written as templates that pass a carry to the next
// chunk by launching themselves from thread 0: a running maximum over the
// element type and the chunk size (two instantiations, the launch naming its
// arguments) and a prefix sum whose launch deduces its type. Promotion's
// chain in the shape generic code writes it.
// Usage: template_chain <seed> <output file>
#include "common.cuh"

constexpr int kN = 5000 - 37;

template <typename T, int Chunk>
__global__ void runningMax(const T *in, T *out, int n, int offset, T carry) {
  __shared__ T best[Chunk];
  int i = offset + threadIdx.x;
  best[threadIdx.x] = i < n ? in[i] : carry;
  __syncthreads();
  for (int d = 1; d < Chunk; d *= 2) {
    T other = threadIdx.x >= d ? best[threadIdx.x - d] : best[threadIdx.x];
    __syncthreads();
    if (other > best[threadIdx.x])
      best[threadIdx.x] = other;
    __syncthreads();
  }
  T mine = best[threadIdx.x] > carry ? best[threadIdx.x] : carry;
  if (i < n)
    out[i] = mine;
  if (threadIdx.x == 0 && offset + Chunk < n) {
    T last = best[Chunk - 1] > carry ? best[Chunk - 1] : carry;
    runningMax<T, Chunk><<<1, Chunk>>>(in, out, n, offset + Chunk, last);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
}

constexpr int kSumChunk = 128;

template <typename T>
__global__ void prefixSum(const T *in, T *out, int n, int offset, T carry) {
  __shared__ T sums[kSumChunk];
  int i = offset + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int d = 1; d < kSumChunk; d *= 2) {
    T add = threadIdx.x >= d ? sums[threadIdx.x - d] : T(0);
    __syncthreads();
    sums[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n)
    out[i] = sums[threadIdx.x] + carry;
  if (threadIdx.x == 0 && offset + kSumChunk < n)
    prefixSum<<<1, kSumChunk>>>(in, out, n, offset + kSumChunk, carry + sums[kSumChunk - 1]);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> ints(kN);
  std::vector<float> floats(kN);
  std::vector<long long> longs(kN);
  for (int i = 0; i < kN; ++i) {
    ints[i] = (int)rng.below(1000000) - 500000;
    floats[i] = (float)rng.below(1 << 20) / 1024.0f;
    longs[i] = (long long)rng.below(1 << 30) * 4;
  }
  int *dInts, *dIntMax;
  float *dFloats, *dFloatMax;
  long long *dLongs, *dLongSum;
  CHECK(cudaMalloc(&dInts, sizeof(int) * kN));
  CHECK(cudaMalloc(&dIntMax, sizeof(int) * kN));
  CHECK(cudaMalloc(&dFloats, sizeof(float) * kN));
  CHECK(cudaMalloc(&dFloatMax, sizeof(float) * kN));
  CHECK(cudaMalloc(&dLongs, sizeof(long long) * kN));
  CHECK(cudaMalloc(&dLongSum, sizeof(long long) * kN));
  CHECK(cudaMemcpy(dInts, ints.data(), sizeof(int) * kN, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dFloats, floats.data(), sizeof(float) * kN, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLongs, longs.data(), sizeof(long long) * kN, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dIntMax, 0xFF, sizeof(int) * kN));
    CHECK(cudaMemset(dFloatMax, 0xFF, sizeof(float) * kN));
    CHECK(cudaMemset(dLongSum, 0xFF, sizeof(long long) * kN));
    runningMax<int, 256><<<1, 256>>>(dInts, dIntMax, kN, 0, -1000000);
    runningMax<float, 64><<<1, 64>>>(dFloats, dFloatMax, kN, 0, 0.0f);
    prefixSum<<<1, kSumChunk>>>(dLongs, dLongSum, kN, 0, 0ll);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> intMax(kN);
  std::vector<float> floatMax(kN);
  std::vector<long long> longSum(kN);
  CHECK(cudaMemcpy(intMax.data(), dIntMax, sizeof(int) * kN, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(floatMax.data(), dFloatMax, sizeof(float) * kN, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(longSum.data(), dLongSum, sizeof(long long) * kN, cudaMemcpyDeviceToHost));
  std::vector<char> bytes;
  auto append = [&](const void *p, size_t n) {
    bytes.insert(bytes.end(), (const char *)p, (const char *)p + n);
  };
  append(intMax.data(), sizeof(int) * kN);
  append(floatMax.data(), sizeof(float) * kN);
  append(longSum.data(), sizeof(long long) * kN);
  writeOutput(argv[2], bytes.data(), bytes.size());
  int wrong = 0;
  int im = -1000000;
  float fm = 0.0f;
  long long sum = 0;
  for (int i = 0; i < kN; ++i) {
    im = std::max(im, ints[i]);
    fm = std::max(fm, floats[i]);
    sum += longs[i];
    wrong += intMax[i] != im || floatMax[i] != fm || longSum[i] != sum;
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

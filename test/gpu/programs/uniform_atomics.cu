// Children that update one address per child with atomics whose old value
// they ignore: a row's sum (float, integer-valued so that every order of
// the adds gives the same bits), a row's maximum, a count shared by every
// child (a global), a bit mask through a template child, and a row's
// minimum, common bits and parity with a countdown of every element (the
// other operations and scopes). Serial copies
// combine such updates and apply them once; the children's sizes vary from
// none to many blocks, so some run serially and some are launched.
// Usage: uniform_atomics <seed> <output file>
#include "common.cuh"
#include <cstring>

constexpr int kRows = 3000;
constexpr int kBlock = 32;

__device__ unsigned long long gpuTestVisited;
__device__ unsigned gpuTestRemaining;

__global__ void rowSum(const int *cols, const float *vals, const float *x, int begin, int end,
                       float *sum) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end)
    atomicAdd(sum, vals[e] * x[cols[e]]);
}

__global__ void rowMax(const int *cols, int begin, int end, int *best, int row) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= end)
    return;
  atomicMax(&best[row], cols[e] ^ row);
  atomicAdd(&gpuTestVisited, 1ull);
}

template <typename T> __global__ void rowBits(const int *cols, int begin, int end, T *bits) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end)
    atomicOr(bits, (T)1 << (cols[e] % 31));
}

__global__ void rowMixed(const int *cols, int begin, int end, int row, long long *least,
                         unsigned *common, unsigned *parity) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= end)
    return;
  atomicMin(least + row, (long long)cols[e] * 3 - 4000);
  atomicAnd(&common[row], (unsigned)cols[e] | 0xFFFF0000u);
  atomicXor_block(&parity[row], (unsigned)cols[e]);
  atomicSub_system(&gpuTestRemaining, 1u);
}

__global__ void rows(const int *offsets, const int *cols, const float *vals, const float *x,
                     float *y, int *best, unsigned *bits, long long *least, unsigned *common,
                     unsigned *parity) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= kRows)
    return;
  int begin = offsets[r], end = offsets[r + 1];
  y[r] = 0.0f;
  best[r] = -1;
  bits[r] = 0;
  least[r] = 1ll << 40;
  common[r] = ~0u;
  parity[r] = 0;
  if (end == begin)
    return;
  int blocks = (end - begin + kBlock - 1) / kBlock;
  // Each launch checked at once, as real code does.
  rowSum<<<blocks, kBlock>>>(cols, vals, x, begin, end, &y[r]);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
  rowMax<<<blocks, kBlock>>>(cols, begin, end, best, r);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
  rowBits<<<blocks, kBlock>>>(cols, begin, end, bits + r);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
  rowMixed<<<blocks, kBlock>>>(cols, begin, end, r, least, common, parity);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> offsets(kRows + 1, 0);
  for (int r = 0; r < kRows; ++r) {
    // Mostly short rows, some empty, a few long (up to 40 blocks).
    uint32_t kind = rng.below(100);
    int length = kind < 10 ? 0 : kind < 95 ? (int)rng.below(40) : (int)rng.below(1280);
    offsets[r + 1] = offsets[r] + length;
  }
  int nnz = offsets[kRows];
  std::vector<int> cols(nnz);
  std::vector<float> vals(nnz), x(kRows);
  for (int e = 0; e < nnz; ++e) {
    cols[e] = (int)rng.below(kRows);
    vals[e] = (float)rng.below(8);
  }
  for (float &v : x)
    v = (float)rng.below(16);
  // Three children per row, all pending at once in the original.
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 15));
  int *dOffsets, *dCols, *dBest;
  float *dVals, *dX, *dY;
  unsigned *dBits, *dCommon, *dParity;
  long long *dLeast;
  CHECK(cudaMalloc(&dOffsets, sizeof(int) * (kRows + 1)));
  CHECK(cudaMalloc(&dCols, sizeof(int) * (nnz + 1)));
  CHECK(cudaMalloc(&dVals, sizeof(float) * (nnz + 1)));
  CHECK(cudaMalloc(&dX, sizeof(float) * kRows));
  CHECK(cudaMalloc(&dY, sizeof(float) * kRows));
  CHECK(cudaMalloc(&dBest, sizeof(int) * kRows));
  CHECK(cudaMalloc(&dBits, sizeof(unsigned) * kRows));
  CHECK(cudaMalloc(&dLeast, sizeof(long long) * kRows));
  CHECK(cudaMalloc(&dCommon, sizeof(unsigned) * kRows));
  CHECK(cudaMalloc(&dParity, sizeof(unsigned) * kRows));
  CHECK(cudaMemcpy(dOffsets, offsets.data(), sizeof(int) * (kRows + 1), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dCols, cols.data(), sizeof(int) * nnz, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dVals, vals.data(), sizeof(float) * nnz, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dX, x.data(), sizeof(float) * kRows, cudaMemcpyHostToDevice));
  auto run = [&] {
    unsigned long long zero = 0;
    unsigned all = (unsigned)nnz;
    CHECK(cudaMemcpyToSymbol(gpuTestVisited, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(gpuTestRemaining, &all, sizeof all));
    rows<<<(kRows + 127) / 128, 128>>>(dOffsets, dCols, dVals, dX, dY, dBest, dBits, dLeast,
                                       dCommon, dParity);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(5, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> y(kRows);
  std::vector<int> best(kRows);
  std::vector<unsigned> bits(kRows), common(kRows), parity(kRows);
  std::vector<long long> least(kRows);
  unsigned long long visited = 0;
  unsigned remaining = 0;
  CHECK(cudaMemcpy(y.data(), dY, sizeof(float) * kRows, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(best.data(), dBest, sizeof(int) * kRows, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bits.data(), dBits, sizeof(unsigned) * kRows, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(least.data(), dLeast, sizeof(long long) * kRows, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(common.data(), dCommon, sizeof(unsigned) * kRows, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(parity.data(), dParity, sizeof(unsigned) * kRows, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpyFromSymbol(&visited, gpuTestVisited, sizeof visited));
  CHECK(cudaMemcpyFromSymbol(&remaining, gpuTestRemaining, sizeof remaining));
  std::vector<uint32_t> output;
  for (int r = 0; r < kRows; ++r) {
    uint32_t word;
    std::memcpy(&word, &y[r], sizeof word);
    output.push_back(word);
    output.push_back((uint32_t)best[r]);
    output.push_back(bits[r]);
    output.push_back((uint32_t)least[r]);
    output.push_back((uint32_t)(least[r] >> 32));
    output.push_back(common[r]);
    output.push_back(parity[r]);
  }
  output.push_back((uint32_t)visited);
  output.push_back(remaining);
  writeOutput(argv[2], output.data(), sizeof(uint32_t) * output.size());
  int wrong = visited != (unsigned long long)nnz || remaining != 0;
  for (int r = 0; r < kRows; ++r) {
    float sum = 0.0f;
    int most = -1;
    unsigned mask = 0, both = ~0u, odd = 0;
    long long low = 1ll << 40;
    for (int e = offsets[r]; e < offsets[r + 1]; ++e) {
      low = std::min(low, (long long)cols[e] * 3 - 4000);
      both &= (unsigned)cols[e] | 0xFFFF0000u;
      odd ^= (unsigned)cols[e];
      sum += vals[e] * x[cols[e]];
      most = std::max(most, cols[e] ^ r);
      mask |= 1u << (cols[e] % 31);
    }
    wrong += y[r] != sum || best[r] != most || bits[r] != mask || least[r] != low ||
             common[r] != both || parity[r] != odd;
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

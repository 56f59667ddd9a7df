// Multi-level refinement with two __global__ overloads of one name: the
// entry refine(cells, levels, n), declared in refine.cuh, gives each chunk
// two non-blocking streams of its own and launches the recursive
// refine(cells, levels, n, lo, hi, depth) on the chunk's halves, one half
// per stream. A range is split again while it is long and its first cell
// says so; every level slot is written by exactly one thread. Then each
// thread of sumHalves sums its chunk's two halves over all levels, again one
// stream per half, with a child that is not overloaded.
// Usage: refine <seed> <output file>
#include "../corpus.cuh"
#include "refine.cuh"

constexpr int kCells = 1 << 16;
constexpr int kChunks = 64;
constexpr int kMinRange = 64;

__global__ void refine(const int *cells, int *levels, int n, int lo, int hi, int depth) {
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < hi)
    levels[depth * n + i] = cells[i] * (depth + 1) + (hi - lo);
  if (blockIdx.x == 0 && threadIdx.x == 0 && depth + 1 < kLevels && hi - lo > kMinRange &&
      (cells[lo] & 3) != 0) {
    int mid = lo + (hi - lo) / 2;
    refine<<<(mid - lo + 127) / 128, 128>>>(cells, levels, n, lo, mid, depth + 1);
    noteLaunch();
    refine<<<(hi - mid + 127) / 128, 128>>>(cells, levels, n, mid, hi, depth + 1);
    noteLaunch();
  }
}

__global__ void refine(const int *cells, int *levels, int n) {
  int chunk = blockIdx.x * blockDim.x + threadIdx.x;
  int size = (n + kChunks - 1) / kChunks;
  int lo = chunk * size, hi = min(n, lo + size);
  if (chunk >= kChunks || hi <= lo)
    return;
  int mid = lo + (hi - lo) / 2;
  cudaStream_t s, s1;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  refine<<<(mid - lo + 127) / 128, 128, 0, s>>>(cells, levels, n, lo, mid, 0);
  noteLaunch();
  refine<<<(hi - mid + 127) / 128, 128, 0, s1>>>(cells, levels, n, mid, hi, 0);
  noteLaunch();
  cudaStreamDestroy(s);
  cudaStreamDestroy(s1);
}

__global__ void sumRange(const int *levels, int n, int lo, int hi, unsigned *sum) {
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= hi)
    return;
  unsigned s = 0;
  for (int d = 0; d < kLevels; ++d)
    s += (unsigned)levels[d * n + i] * (d + 1);
  atomicAdd(sum, s);
}

__global__ void sumHalves(const int *levels, int n, unsigned *sums) {
  int chunk = blockIdx.x * blockDim.x + threadIdx.x;
  int size = (n + kChunks - 1) / kChunks;
  int lo = chunk * size, hi = min(n, lo + size);
  if (chunk >= kChunks || hi <= lo)
    return;
  int mid = lo + (hi - lo) / 2;
  cudaStream_t s, s1;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  sumRange<<<(mid - lo + 255) / 256, 256, 0, s>>>(levels, n, lo, mid, &sums[2 * chunk]);
  noteLaunch();
  sumRange<<<(hi - mid + 255) / 256, 256, 0, s1>>>(levels, n, mid, hi, &sums[2 * chunk + 1]);
  noteLaunch();
  cudaStreamDestroy(s);
  cudaStreamDestroy(s1);
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> cells(kCells);
  for (int &c : cells)
    c = (int)rng.below(1 << 20);
  int *dCells, *dLevels;
  unsigned *dSums;
  CORPUS_CHECK(cudaMalloc(&dSums, sizeof(unsigned) * 2 * kChunks));
  CORPUS_CHECK(cudaMemset(dSums, 0, sizeof(unsigned) * 2 * kChunks));
  CORPUS_CHECK(cudaMalloc(&dCells, sizeof(int) * kCells));
  CORPUS_CHECK(cudaMalloc(&dLevels, sizeof(int) * kCells * kLevels));
  CORPUS_CHECK(cudaMemcpy(dCells, cells.data(), sizeof(int) * kCells, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dLevels, 0xff, sizeof(int) * kCells * kLevels));
  CORPUS_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 14));
  refine<<<1, kChunks>>>(dCells, dLevels, kCells);
  CORPUS_CHECK(cudaGetLastError());
  sumHalves<<<1, kChunks>>>(dLevels, kCells, dSums);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::vector<int> levels(kCells * kLevels);
  std::vector<unsigned> sums(2 * kChunks);
  CORPUS_CHECK(cudaMemcpy(levels.data(), dLevels, sizeof(int) * levels.size(),
                          cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(sums.data(), dSums, sizeof(unsigned) * sums.size(),
                          cudaMemcpyDeviceToHost));
  std::vector<uint32_t> words = asWords(levels), sumWords = asWords(sums);
  words.insert(words.end(), sumWords.begin(), sumWords.end());
  return finish(argv[2], words);
}

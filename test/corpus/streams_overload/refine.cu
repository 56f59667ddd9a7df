// Multi-level refinement with two __global__ overloads of one name: the
// entry refine(cells, levels, n), declared in refine.cuh, gives each chunk
// two non-blocking streams of its own and launches the recursive
// refine(cells, levels, n, lo, hi, depth) on the chunk's halves, one half
// per stream. A range is split again while it is long and its first cell
// says so; every level slot is written by exactly one thread.
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

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> cells(kCells);
  for (int &c : cells)
    c = (int)rng.below(1 << 20);
  int *dCells, *dLevels;
  CORPUS_CHECK(cudaMalloc(&dCells, sizeof(int) * kCells));
  CORPUS_CHECK(cudaMalloc(&dLevels, sizeof(int) * kCells * kLevels));
  CORPUS_CHECK(cudaMemcpy(dCells, cells.data(), sizeof(int) * kCells, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dLevels, 0xff, sizeof(int) * kCells * kLevels));
  refine<<<1, kChunks>>>(dCells, dLevels, kCells);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::vector<int> levels(kCells * kLevels);
  CORPUS_CHECK(cudaMemcpy(levels.data(), dLevels, sizeof(int) * levels.size(),
                          cudaMemcpyDeviceToHost));
  return finish(argv[2], asWords(levels));
}

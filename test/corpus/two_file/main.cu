// A two-file program: per row of a ragged matrix the parent launches the
// child defined in child.cu, which bins the row's values into the row's own
// histogram. Build: nvcc -rdc=true main.cu child.cu -lcudadevrt.
// Usage: histogram <seed> <output file>
#include "../corpus.cuh"
#include "histogram.cuh"

constexpr int kRows = 2048;

__global__ void binRows(const int *values, const int *rowStart, unsigned *histograms) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= kRows)
    return;
  int begin = rowStart[row], end = rowStart[row + 1];
  if (end > begin) {
    binRow<<<(end - begin + 127) / 128, 128>>>(values, begin, end, histograms + row * kBins);
    noteLaunch();
  }
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> rowStart(kRows + 1, 0);
  for (int r = 0; r < kRows; ++r)
    rowStart[r + 1] = rowStart[r] + (rng.below(10) == 0 ? (int)rng.below(3000) : (int)rng.below(50));
  std::vector<int> values(rowStart[kRows] + 1);
  for (int &v : values)
    v = (int)rng.below(1 << 30);
  int *dValues, *dRowStart;
  unsigned *dHistograms;
  CORPUS_CHECK(cudaMalloc(&dValues, sizeof(int) * values.size()));
  CORPUS_CHECK(cudaMalloc(&dRowStart, sizeof(int) * rowStart.size()));
  CORPUS_CHECK(cudaMalloc(&dHistograms, sizeof(unsigned) * kRows * kBins));
  CORPUS_CHECK(cudaMemcpy(dValues, values.data(), sizeof(int) * values.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dRowStart, rowStart.data(), sizeof(int) * rowStart.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dHistograms, 0, sizeof(unsigned) * kRows * kBins));
  CORPUS_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, kRows));
  binRows<<<(kRows + 255) / 256, 256>>>(dValues, dRowStart, dHistograms);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> histograms(kRows * kBins);
  CORPUS_CHECK(cudaMemcpy(histograms.data(), dHistograms, sizeof(unsigned) * histograms.size(),
                          cudaMemcpyDeviceToHost));
  return finish(argv[2], asWords(histograms));
}

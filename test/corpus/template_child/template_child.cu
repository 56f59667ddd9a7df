// A template child kernel launched from non-template parents: for each
// window of a ragged series the parent launches a moving-sum child whose
// value type and radius are template arguments (int and 64-bit sums).
// Usage: template_child <seed> <output file>
#include "../corpus.cuh"

constexpr int kWindows = 512;

// out[i] = sum of in[i - Radius, i + Radius] inside [begin, end).
template <typename Value, int Radius>
__global__ void movingSum(const int *in, Value *out, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end)
    return;
  Value sum = 0;
  for (int j = max(begin, i - Radius); j <= min(end - 1, i + Radius); ++j)
    sum += (Value)in[j];
  out[i] = sum;
}

__global__ void smoothWindows(const int *in, int *narrow, long long *wide,
                              const int *windowStart) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= kWindows)
    return;
  int begin = windowStart[w], end = windowStart[w + 1];
  if (end == begin)
    return;
  int blocks = (end - begin + 127) / 128;
  movingSum<int, 2><<<blocks, 128>>>(in, narrow, begin, end);
  noteLaunch();
  movingSum<long long, 8><<<blocks, 128>>>(in, wide, begin, end);
  noteLaunch();
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> windowStart(kWindows + 1, 0);
  for (int w = 0; w < kWindows; ++w)
    windowStart[w + 1] = windowStart[w] + (rng.below(6) == 0 ? (int)rng.below(4000) : (int)rng.below(60));
  const int n = windowStart[kWindows];
  std::vector<int> in(n + 1);
  for (int &x : in)
    x = (int)rng.below(1 << 24) - (1 << 23);
  int *dIn, *dNarrow, *dStart;
  long long *dWide;
  CORPUS_CHECK(cudaMalloc(&dIn, sizeof(int) * in.size()));
  CORPUS_CHECK(cudaMalloc(&dNarrow, sizeof(int) * in.size()));
  CORPUS_CHECK(cudaMalloc(&dWide, sizeof(long long) * in.size()));
  CORPUS_CHECK(cudaMalloc(&dStart, sizeof(int) * windowStart.size()));
  CORPUS_CHECK(cudaMemcpy(dIn, in.data(), sizeof(int) * in.size(), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dStart, windowStart.data(), sizeof(int) * windowStart.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dNarrow, 0, sizeof(int) * in.size()));
  CORPUS_CHECK(cudaMemset(dWide, 0, sizeof(long long) * in.size()));
  smoothWindows<<<(kWindows + 127) / 128, 128>>>(dIn, dNarrow, dWide, dStart);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::vector<int> narrow(n);
  std::vector<long long> wide(n);
  CORPUS_CHECK(cudaMemcpy(narrow.data(), dNarrow, sizeof(int) * n, cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(wide.data(), dWide, sizeof(long long) * n, cudaMemcpyDeviceToHost));
  std::vector<uint32_t> words = asWords(narrow), wideWords = asWords(wide);
  words.insert(words.end(), wideWords.begin(), wideWords.end());
  return finish(argv[2], words);
}

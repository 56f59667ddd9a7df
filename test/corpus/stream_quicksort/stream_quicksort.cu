// Recursive quicksort launched from the host, in the shape of the classic
// dynamic-parallelism sample: one thread partitions [left, right] (inclusive
// bounds) around the middle value with two pointers, then launches the
// kernel itself on each non-empty side, each into a non-blocking stream it
// creates and destroys. Below a depth bound, and on short ranges, the thread
// sorts by selection sort. The host sorts several arrays, one launch each.
// Usage: stream_quicksort <seed> <output file>
#include "../corpus.cuh"

constexpr int kArrays = 4;
constexpr int kLength = 1 << 14;
constexpr int kMaxDepth = 16;
constexpr int kSelectionLength = 32;

__device__ void selectionSort(unsigned *data, int left, int right) {
  for (int i = left; i <= right; ++i) {
    unsigned smallest = data[i];
    int at = i;
    for (int j = i + 1; j <= right; ++j)
      if (data[j] < smallest) {
        smallest = data[j];
        at = j;
      }
    if (at != i) {
      data[at] = data[i];
      data[i] = smallest;
    }
  }
}

__global__ void streamQuicksort(unsigned *data, int left, int right, int depth) {
  if (depth >= kMaxDepth || right - left <= kSelectionLength) {
    selectionSort(data, left, right);
    return;
  }
  unsigned *low = data + left;
  unsigned *high = data + right;
  unsigned pivot = data[(left + right) / 2];
  while (low <= high) {
    unsigned lowValue = *low, highValue = *high;
    while (lowValue < pivot) {
      ++low;
      lowValue = *low;
    }
    while (highValue > pivot) {
      --high;
      highValue = *high;
    }
    if (low <= high) {
      *low++ = highValue;
      *high-- = lowValue;
    }
  }
  int newRight = (int)(high - data);
  int newLeft = (int)(low - data);
  if (left < newRight) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    streamQuicksort<<<1, 1, 0, s>>>(data, left, newRight, depth + 1);
    noteLaunch();
    cudaStreamDestroy(s);
  }
  if (newLeft < right) {
    cudaStream_t s1;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    streamQuicksort<<<1, 1, 0, s1>>>(data, newLeft, right, depth + 1);
    noteLaunch();
    cudaStreamDestroy(s1);
  }
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<unsigned> values(kArrays * kLength);
  // Array k draws from 1 << (6 + 6k) values: from many duplicates to few.
  for (int k = 0; k < kArrays; ++k)
    for (int i = 0; i < kLength; ++i)
      values[k * kLength + i] = rng.below(1u << (6 + 6 * k));
  unsigned *dValues;
  CORPUS_CHECK(cudaMalloc(&dValues, sizeof(unsigned) * values.size()));
  CORPUS_CHECK(cudaMemcpy(dValues, values.data(), sizeof(unsigned) * values.size(),
                          cudaMemcpyHostToDevice));
  for (int k = 0; k < kArrays; ++k) {
    streamQuicksort<<<1, 1>>>(dValues + k * kLength, 0, kLength - 1, 0);
    CORPUS_CHECK(cudaGetLastError());
  }
  CORPUS_CHECK(cudaDeviceSynchronize());
  CORPUS_CHECK(cudaMemcpy(values.data(), dValues, sizeof(unsigned) * values.size(),
                          cudaMemcpyDeviceToHost));
  for (int k = 0; k < kArrays; ++k)
    for (int i = 1; i < kLength; ++i)
      if (values[k * kLength + i - 1] > values[k * kLength + i]) {
        std::fprintf(stderr, "array %d not sorted at %d\n", k, i);
        return 1;
      }
  return finish(argv[2], asWords(values));
}

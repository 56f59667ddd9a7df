// Recursive quicksort started from the host, as the common dynamic-
// parallelism example writes it: the host launches the kernel on the whole
// array (one thread), and each thread partitions its range with two
// pointers and launches the kernel itself on each side, in non-blocking
// streams it creates. Ranges below the depth bound or of few elements are
// sorted by selection sort. launchopt's persistent grid starts from the
// host's launch and runs the recorded launches in rounds.
// Usage: quicksort_host <seed> <output file>
#include "common.cuh"
#include <algorithm>

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
    data[at] = data[i];
    data[i] = smallest;
  }
}

__global__ void hostQuicksort(unsigned *data, int left, int right, int depth) {
  if (depth >= kMaxDepth || right - left <= kSelectionLength) {
    selectionSort(data, left, right);
    return;
  }
  unsigned *low = data + left;
  unsigned *high = data + right;
  unsigned pivot = data[(left + right) / 2];
  while (low <= high) {
    unsigned lowValue = *low, highValue = *high;
    while (lowValue < pivot)
      lowValue = *++low;
    while (highValue > pivot)
      highValue = *--high;
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
    hostQuicksort<<<1, 1, 0, s>>>(data, left, newRight, depth + 1);
    cudaStreamDestroy(s);
  }
  if (newLeft < right) {
    cudaStream_t s1;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    hostQuicksort<<<1, 1, 0, s1>>>(data, newLeft, right, depth + 1);
    cudaStreamDestroy(s1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int n = 1 << 17;
  std::vector<unsigned> input(n);
  for (unsigned &v : input)
    v = rng.below(1u << 24);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dData;
  CHECK(cudaMalloc(&dData, sizeof(unsigned) * n));
  auto run = [&] {
    CHECK(cudaMemcpy(dData, input.data(), sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    hostQuicksort<<<1, 1>>>(dData, 0, n - 1, 0);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(n);
  CHECK(cudaMemcpy(out.data(), dData, sizeof(unsigned) * n, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * n);
  std::sort(input.begin(), input.end());
  bool sorted = out == input;
  std::printf("time_ms %.3f launch_failures %d sorted %d\n", ms, launchFailures(), (int)sorted);
  return launchFailures() == 0 && sorted ? 0 : 1;
}

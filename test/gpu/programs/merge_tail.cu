// Recursive merge sort as CDP2 code writes it: each level sorts its two
// halves in child grids launched into streams of their own, then tail-launches
// the merge, which runs once the level's grid and its children are done.
// Short ranges (or the deepest level) sort serially in one thread.
// Usage: merge_tail <seed> <output file>
#include "common.cuh"

#define MAX_DEPTH 12
#define SERIAL_BELOW 64

__device__ void insertionSort(unsigned *data, int begin, int end) {
  for (int i = begin + 1; i < end; ++i) {
    unsigned v = data[i];
    int j = i - 1;
    while (j >= begin && data[j] > v) {
      data[j + 1] = data[j];
      --j;
    }
    data[j + 1] = v;
  }
}

// Merges [begin, mid) and [mid, end) of data through scratch, one thread.
__global__ void mergeHalves(unsigned *data, unsigned *scratch, int begin, int mid, int end) {
  int i = begin, j = mid, k = begin;
  while (i < mid && j < end)
    scratch[k++] = data[i] <= data[j] ? data[i++] : data[j++];
  while (i < mid)
    scratch[k++] = data[i++];
  while (j < end)
    scratch[k++] = data[j++];
  for (int t = begin; t < end; ++t)
    data[t] = scratch[t];
}

__global__ void mergeSort(unsigned *data, unsigned *scratch, int begin, int end, int depth) {
  if (end - begin <= SERIAL_BELOW || depth >= MAX_DEPTH) {
    insertionSort(data, begin, end);
    return;
  }
  int mid = begin + (end - begin) / 2;
  cudaStream_t left, right;
  cudaStreamCreateWithFlags(&left, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&right, cudaStreamNonBlocking);
  mergeSort<<<1, 1, 0, left>>>(data, scratch, begin, mid, depth + 1);
  mergeSort<<<1, 1, 0, right>>>(data, scratch, mid, end, depth + 1);
  cudaStreamDestroy(left);
  cudaStreamDestroy(right);
  mergeHalves<<<1, 1, 0, cudaStreamTailLaunch>>>(data, scratch, begin, mid, end);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int n = 1 << 16;
  std::vector<unsigned> input(n);
  for (unsigned &v : input)
    v = rng.below(1u << 30);
  // About 2,000 sorting grids and 1,000 merges are pending at once.
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 13));
  unsigned *data, *scratch;
  CHECK(cudaMalloc(&data, sizeof(unsigned) * n));
  CHECK(cudaMalloc(&scratch, sizeof(unsigned) * n));
  auto run = [&] {
    CHECK(cudaMemcpy(data, input.data(), sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    mergeSort<<<1, 1>>>(data, scratch, 0, n, 0);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(5, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(n);
  CHECK(cudaMemcpy(out.data(), data, sizeof(unsigned) * n, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * n);
  bool sorted = std::is_sorted(out.begin(), out.end());
  std::printf("time_ms %.3f launch_failures %d sorted %d\n", ms, launchFailures(), sorted ? 1 : 0);
  return sorted ? 0 : 1;
}

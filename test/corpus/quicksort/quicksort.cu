// Recursive quicksort with dynamic parallelism: one thread partitions
// [lo, hi) around a middle pivot (Hoare's scheme, so both halves are
// non-empty), then launches itself on [lo, mid) and [mid, hi) into the same
// (default) stream. Short ranges, and every range below the depth bound, are
// sorted by insertion sort in place. Several independent arrays are sorted.
// Usage: quicksort <seed> <output file>
#include "../corpus.cuh"

constexpr int kArrays = 8;
constexpr int kLength = 1 << 13;
constexpr int kInsertionLength = 32;
constexpr int kMaxDepth = 16;

__device__ void insertionSort(int *a, int lo, int hi) {
  for (int i = lo + 1; i < hi; ++i) {
    int x = a[i], j = i - 1;
    while (j >= lo && a[j] > x) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = x;
  }
}

// Returns mid with lo < mid < hi, every a[lo, mid) <= every a[mid, hi).
__device__ int partition(int *a, int lo, int hi) {
  int pivot = a[lo + (hi - 1 - lo) / 2];
  int i = lo - 1, j = hi;
  while (true) {
    do
      ++i;
    while (a[i] < pivot);
    do
      --j;
    while (a[j] > pivot);
    if (i >= j)
      return j + 1;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

__global__ void quicksort(int *a, int lo, int hi, int depth) {
  if (hi - lo <= kInsertionLength || depth >= kMaxDepth) {
    insertionSort(a, lo, hi);
    return;
  }
  int mid = partition(a, lo, hi);
  quicksort<<<1, 1>>>(a, lo, mid, depth + 1);
  noteLaunch();
  quicksort<<<1, 1>>>(a, mid, hi, depth + 1);
  noteLaunch();
}

__global__ void sortArrays(int *arrays) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < kArrays) {
    quicksort<<<1, 1>>>(arrays + k * kLength, 0, kLength, 1);
    noteLaunch();
  }
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> values(kArrays * kLength);
  // Array k draws from 1 << (4 + 2k) values: from many duplicates to few.
  for (int k = 0; k < kArrays; ++k)
    for (int i = 0; i < kLength; ++i)
      values[k * kLength + i] = (int)rng.below(1u << (4 + 2 * k)) - (1 << (3 + 2 * k));
  int *dValues;
  CORPUS_CHECK(cudaMalloc(&dValues, sizeof(int) * values.size()));
  CORPUS_CHECK(cudaMemcpy(dValues, values.data(), sizeof(int) * values.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 14));
  sortArrays<<<1, 32>>>(dValues);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  CORPUS_CHECK(cudaMemcpy(values.data(), dValues, sizeof(int) * values.size(),
                          cudaMemcpyDeviceToHost));
  for (int k = 0; k < kArrays; ++k)
    for (int i = 1; i < kLength; ++i)
      if (values[k * kLength + i - 1] > values[k * kLength + i]) {
        std::fprintf(stderr, "array %d not sorted at %d\n", k, i);
        return 1;
      }
  return finish(argv[2], asWords(values));
}

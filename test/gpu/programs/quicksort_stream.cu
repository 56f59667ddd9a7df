// Recursive quicksort whose two halves go into the same (default) stream of
// the parent thread: launchopt proves them independent (disjoint index
// ranges [lo, store) and [store + 1, hi) of one array) instead of needing
// --assume-independent-children. One parent thread per short segment (at
// most 20 elements, so the recursion stays within CDP's nesting depth).
// Usage: quicksort_stream <seed> <output file>
#include "common.cuh"

// Sorts data[lo, hi). No launch-failure counter here: a global written by
// the child is out of the independence proof's sight; a failed launch shows
// up as an unsorted segment in the comparison instead.
__global__ void quicksort(unsigned *data, int lo, int hi) {
  if (hi - lo < 2)
    return;
  unsigned pivot = data[hi - 1];
  int store = lo;
  for (int i = lo; i < hi - 1; ++i)
    if (data[i] < pivot) {
      unsigned t = data[i];
      data[i] = data[store];
      data[store] = t;
      ++store;
    }
  unsigned t = data[store];
  data[store] = data[hi - 1];
  data[hi - 1] = t;
  quicksort<<<1, 1>>>(data, lo, store);
  quicksort<<<1, 1>>>(data, store + 1, hi);
}

__global__ void sortSegments(unsigned *data, const int *offsets, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments)
    return;
  quicksort<<<1, 1>>>(data, offsets[s], offsets[s + 1]);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int segments = 2048;
  std::vector<int> offsets(segments + 1, 0);
  for (int s = 0; s < segments; ++s)
    offsets[s + 1] = offsets[s] + (int)rng.below(21);
  int total = offsets[segments];
  std::vector<unsigned> input(total);
  for (unsigned &v : input)
    v = rng.below(1000);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 17));
  unsigned *dData;
  int *dOff;
  CHECK(cudaMalloc(&dData, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOff, sizeof(int) * (segments + 1)));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(int) * (segments + 1), cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemcpy(dData, input.data(), sizeof(unsigned) * total, cudaMemcpyHostToDevice));
    sortSegments<<<(segments + 127) / 128, 128>>>(dData, dOff, segments);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total);
  CHECK(cudaMemcpy(out.data(), dData, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * total);
  int unsorted = 0;
  for (int s = 0; s < segments; ++s)
    unsorted += !std::is_sorted(out.begin() + offsets[s], out.begin() + offsets[s + 1]);
  std::printf("time_ms %.3f launch_failures %d unsorted_segments %d\n", ms, launchFailures(),
              unsorted);
  return launchFailures() == 0 && unsorted == 0 ? 0 : 1;
}

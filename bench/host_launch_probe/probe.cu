// Measures the ways a host-launched parent's aggregated child grid can be
// launched (--aggregate=grid vs --aggregate=host), for the choice of
// host_aggregation.cuh's default and for --auto's constants. One parent grid
// of `parents` threads, each launching a child of `childBlocks` blocks of 128
// threads that adds 1 to its elements: the same elements for every child
// (layout "shared") or a slice of its own (layout "slices"); per
// configuration the median over repetitions of the time from the first host
// launch to the end of the stream, with the result checked:
//   cdp          the original: every parent thread launches its child
//   grid-tail    --aggregate=grid: the last parent block tail-launches one grid
//   multiblock   --aggregate=multiblock:8: the last block of each group of
//                parent blocks launches the group's grid (fire-and-forget)
//   host-persist --aggregate=host default: a persistent grid (occupancy x SMs)
//                reads the device-written count and strides over the blocks
//   host-copy    LAUNCHOPT_HOST_COUNT_COPY=1: the count copied back, then an
//                exactly sized grid (one stream synchronization)
//   host-or-device --aggregate=host-or-device: host-persist for a grid of at
//                least 16,384 threads, device launches below
// Built from launchopt's outputs of probe_app.cu by run.sh.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

void runCase(float *d, const int *sizes, int parents, int stride, cudaStream_t s); // probe_app.cu

//   probe NAME [LAYOUT [PARENTS]]   (only that layout, "shared" or "slices",
//                                   and that parent count)
int main(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "variant";
  const char *onlyLayout = argc > 2 ? argv[2] : nullptr;
  const int onlyParents = argc > 3 ? atoi(argv[3]) : 0;
  const int parentCounts[] = {1, 32, 1024, 8192, 32768};
  const int childBlocks[] = {1, 8};
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (bool slices : {false, true})
    for (int parents : parentCounts)
      for (int blocks : childBlocks) {
      if ((onlyLayout && std::string(onlyLayout) != (slices ? "slices" : "shared")) ||
          (onlyParents && parents != onlyParents))
        continue;
      int n = blocks * 128;
      int stride = slices ? n : 0;
      size_t elements = slices ? size_t(parents) * n : size_t(n);
      float *d;
      int *sizes;
      cudaMalloc(&d, sizeof(float) * elements);
      cudaMalloc(&sizes, sizeof(int) * parents);
      std::vector<int> h(parents, n);
      cudaMemcpy(sizes, h.data(), sizeof(int) * parents, cudaMemcpyHostToDevice);
      cudaMemset(d, 0, sizeof(float) * elements);
      cudaEvent_t a, b;
      cudaEventCreate(&a);
      cudaEventCreate(&b);
      const int reps = 21;
      std::vector<float> ms;
      runCase(d, sizes, parents, stride, s); // warm-up
      cudaStreamSynchronize(s);
      for (int r = 0; r < reps; ++r) {
        cudaEventRecord(a, s);
        runCase(d, sizes, parents, stride, s);
        cudaEventRecord(b, s);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        ms.push_back(t);
      }
      std::vector<float> out(elements);
      cudaMemcpy(out.data(), d, sizeof(float) * elements, cudaMemcpyDeviceToHost);
      // Every repetition (and the warm-up) adds 1 per child to each element
      // the child covers.
      float want = float(slices ? 1 : parents) * (reps + 1);
      bool ok = std::all_of(out.begin(), out.end(), [&](float v) { return v == want; });
      cudaError_t e = cudaGetLastError();
      std::sort(ms.begin(), ms.end());
      printf("%-14s %-6s parents %6d child_blocks %2d median_us %9.2f %s\n", name,
             slices ? "slices" : "shared", parents, blocks,
             ms[reps / 2] * 1000.0f,
             e != cudaSuccess ? cudaGetErrorString(e) : ok ? "ok" : "WRONG RESULT");
      cudaFree(d);
      cudaFree(sizes);
    }
  return 0;
}

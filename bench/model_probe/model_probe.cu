// Measures three constants of --auto's cost model (lib/Plan/CostModel.cpp,
// lib/Transforms/Fusion/gpus/h100-launch.json) on the GPU at hand, in the
// model's own units:
//   global_atomic_same_address_ns  one 64-bit atomicAdd on a word that every
//       thread of a large grid adds to (an aggregation scope's reservation
//       counter), over the same atomics on distinct words
//   thread_search_step_ns  one step of a binary search over 33,792 running
//       sums (a packed child thread finding its record: consecutive threads
//       search for consecutive keys), times the threads the GPU runs at once:
//       the model divides by them
//   serial_child_thread_ns  one child thread run serially by its parent
//       thread: a gather body (sum += values[e] * x[columns[e]], each parent
//       thread walking its own 64 elements, columns random), the time of 48
//       more iterations over 48; with the nominal scenario's 132 x 256 parent
//       threads and with as many as the GPU runs at once
// Each time is the best of 5 runs of one kernel, from CUDA events.
// Build: nvcc -arch=sm_90 -O3 model_probe.cu -o model_probe
#include <cstdio>
#include <cuda_runtime.h>

namespace {

__global__ void addSame(unsigned long long *word, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(word, (1ull << 32) | (i & 7));
}

__global__ void addDistinct(unsigned long long *words, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&words[i], (1ull << 32) | (i & 7));
}

__device__ unsigned keyOf(unsigned i, unsigned total) { return i % total; }

// The index of the last running sum at or below the key: the record a
// packed thread belongs to.
__global__ void search(const unsigned *sums, unsigned count, unsigned total, unsigned n,
                       unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned key = keyOf(i, total), lo = 0, hi = count - 1;
  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (sums[mid] <= key)
      lo = mid;
    else
      hi = mid - 1;
  }
  out[i] = lo;
}

__global__ void noSearch(unsigned total, unsigned n, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = keyOf(i, total);
}

__global__ void gather(const int *columns, const float *values, const float *x, int iterations,
                       float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int k = 0; k < iterations; ++k) {
    unsigned e = i * 64 + k;
    sum += values[e] * x[columns[e]];
  }
  out[i] = sum;
}

__global__ void fill(int *columns, float *values, unsigned n, unsigned range) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    columns[i] = int((i * 2654435761u) % range);
    values[i] = 1.0f / float(i % 13 + 1);
  }
}

template <typename Launch> float bestMs(Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float best = 1e30f;
  launch(); // warm-up
  for (int rep = 0; rep < 5; ++rep) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    best = ms < best ? ms : best;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

} // namespace

int main() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    std::printf("model_probe: no GPU\n");
    return 1;
  }
  const unsigned block = 256;
  const double concurrent = double(p.multiProcessorCount) * p.maxThreadsPerMultiProcessor;

  const unsigned n = 1u << 22;
  unsigned long long *words = nullptr;
  cudaMalloc(&words, sizeof(unsigned long long) * n);
  cudaMemset(words, 0, sizeof(unsigned long long) * n);
  float same = bestMs([&] { addSame<<<n / block, block>>>(words, n); });
  float distinct = bestMs([&] { addDistinct<<<n / block, block>>>(words, n); });
  double atomicNs = (same - distinct) * 1e6 / n;

  const unsigned count = 33792, perRecord = 128, total = count * perRecord;
  unsigned sums[count];
  for (unsigned r = 0; r < count; ++r)
    sums[r] = r * perRecord;
  unsigned *deviceSums = nullptr, *out = nullptr;
  cudaMalloc(&deviceSums, sizeof sums);
  cudaMemcpy(deviceSums, sums, sizeof sums, cudaMemcpyHostToDevice);
  cudaMalloc(&out, sizeof(unsigned) * n);
  float searched = bestMs([&] { search<<<n / block, block>>>(deviceSums, count, total, n, out); });
  float unsearched = bestMs([&] { noSearch<<<n / block, block>>>(total, n, out); });
  double steps = 16; // ceil(log2(33792))
  double searchNs = (searched - unsearched) * 1e6 * concurrent / (double(n) * steps);

  const unsigned nominal = 132 * 256, threads = unsigned(concurrent), elements = threads * 64,
                 range = 1u << 20;
  int *columns = nullptr;
  float *values = nullptr, *x = nullptr, *sumsOut = nullptr;
  cudaMalloc(&columns, sizeof(int) * elements);
  cudaMalloc(&values, sizeof(float) * elements);
  cudaMalloc(&x, sizeof(float) * range);
  cudaMalloc(&sumsOut, sizeof(float) * threads);
  cudaMemset(x, 0, sizeof(float) * range);
  fill<<<(elements + block - 1) / block, block>>>(columns, values, elements, range);
  unsigned grid = (threads + block - 1) / block;
  float longRun = bestMs([&] { gather<<<grid, block>>>(columns, values, x, 64, sumsOut); });
  float shortRun = bestMs([&] { gather<<<grid, block>>>(columns, values, x, 16, sumsOut); });
  double serialNs = (longRun - shortRun) * 1e6 / 48;
  float nominalLong =
      bestMs([&] { gather<<<nominal / block, block>>>(columns, values, x, 64, sumsOut); });
  float nominalShort =
      bestMs([&] { gather<<<nominal / block, block>>>(columns, values, x, 16, sumsOut); });
  double nominalNs = (nominalLong - nominalShort) * 1e6 / 48;

  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("model_probe: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::printf("# %s, %d SMs, %.0f threads at once\n", p.name, p.multiProcessorCount, concurrent);
  std::printf("same-address atomics: %u in %.4f ms, distinct %.4f ms\n", n, same, distinct);
  std::printf("search: %u threads over %u sums in %.4f ms, without %.4f ms\n", n, count, searched,
              unsearched);
  std::printf("gather: %u threads, 64 iterations %.4f ms, 16 iterations %.4f ms\n", threads,
              longRun, shortRun);
  std::printf("global_atomic_same_address_ns %.3f\n", atomicNs);
  std::printf("thread_search_step_ns %.3f\n", searchNs);
  std::printf("gather: %u threads, 64 iterations %.4f ms, 16 iterations %.4f ms\n", nominal,
              nominalLong, nominalShort);
  std::printf("serial_child_thread_ns %.3f (%u parent threads), %.3f (%u)\n", nominalNs, nominal,
              serialNs, threads);
  return 0;
}

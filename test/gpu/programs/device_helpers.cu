// Launches written in device functions, as real programs write them: a free
// helper (reading threadIdx) that two kernels call, one of them in a
// grid-stride loop, and a member function of a class template passed by
// value, reached from a template kernel through a template helper; the
// children, the helper and the parents are in three namespaces. Row lengths
// are skewed, so most children are small. A transformed program that lost,
// repeated or mis-indexed a child writes different values.
// Usage: device_helpers <seed> <output file>
#include "common.cuh"

namespace segs {
__global__ void addRow(const unsigned *vals, unsigned *out, unsigned n, unsigned salt) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = vals[i] * 3u + salt;
}

__global__ void scaleRow(unsigned *out, unsigned n, unsigned factor) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = out[i] * factor + i;
}

} // namespace segs

namespace ops {
__device__ void expandRow(const unsigned *vals, unsigned *out, const unsigned *offsets,
                          const unsigned *lengths, int row) {
  unsigned n = lengths[row];
  if (n == 0)
    return;
  unsigned salt = (unsigned)row * 17u + threadIdx.x % 4u;
  segs::addRow<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(
      vals + offsets[row], out + offsets[row], n, salt);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&gpuTestLaunchFailures, 1);
}
} // namespace ops

namespace app {
__global__ void expandEven(const unsigned *vals, unsigned *out, const unsigned *offsets,
                           const unsigned *lengths, int rows) {
  int r = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (r < rows)
    ops::expandRow(vals, out, offsets, lengths, r);
}

__global__ void expandOdd(const unsigned *vals, unsigned *out, const unsigned *offsets,
                          const unsigned *lengths, int rows) {
  for (int r = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + 1; r < rows;
       r += 2 * blockDim.x * gridDim.x)
    ops::expandRow(vals, out, offsets, lengths, r);
}

template <typename Index> struct RowScaler {
  unsigned *out;
  const Index *offsets;
  const Index *lengths;

  __device__ void scale(int row, unsigned factor) const {
    unsigned n = lengths[row];
    if (n > 0)
      segs::scaleRow<<<(n + 63) / 64, 64>>>(out + offsets[row], n, factor);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
};

// Dependent calls: the object's type is a class template's.
template <typename Index>
__device__ void scaleOne(const RowScaler<Index> &scaler, int row) {
  scaler.scale(row, (unsigned)(row % 7 + 1));
}

template <typename Index> __global__ void scaleAll(RowScaler<Index> scaler, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    scaleOne(scaler, r);
}
} // namespace app

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int rows = 1 << 14;
  std::vector<unsigned> offsets(rows), lengths(rows);
  unsigned total = 0;
  for (int r = 0; r < rows; ++r) {
    lengths[r] = rng.below(100) == 0 ? 1024 + rng.below(8192) : rng.below(64);
    offsets[r] = total;
    total += lengths[r];
  }
  std::vector<unsigned> vals(total);
  for (unsigned &v : vals)
    v = rng.next();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1 << 16));
  unsigned *dVals, *dOut, *dOff, *dLen;
  CHECK(cudaMalloc(&dVals, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOut, sizeof(unsigned) * total));
  CHECK(cudaMalloc(&dOff, sizeof(unsigned) * rows));
  CHECK(cudaMalloc(&dLen, sizeof(unsigned) * rows));
  CHECK(cudaMemcpy(dVals, vals.data(), sizeof(unsigned) * total, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOff, offsets.data(), sizeof(unsigned) * rows, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dLen, lengths.data(), sizeof(unsigned) * rows, cudaMemcpyHostToDevice));
  // Poisoned before every run so an element nobody wrote shows up.
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xAB, sizeof(unsigned) * total));
    app::expandEven<<<(rows / 2 + 127) / 128, 128>>>(dVals, dOut, dOff, dLen, rows);
    app::expandOdd<<<8, 128>>>(dVals, dOut, dOff, dLen, rows);
    app::scaleAll<unsigned>
        <<<(rows + 127) / 128, 128>>>(app::RowScaler<unsigned>{dOut, dOff, dLen}, rows);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(total);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(unsigned) * total);
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
  return launchFailures() == 0 ? 0 : 1;
}

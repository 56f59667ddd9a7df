// A single-block scan that passes its carry to the next chunk by launching
// itself from thread 0 with its own block (`blockDim.x`): launch removal
// runs the chain in a persistent grid of the host launch's block shape.
// Usage: chained_scan_own_block <seed> <output file>
#include "common.cuh"

constexpr int kChunk = 256;
constexpr int kChunks = 20;
constexpr int kN = kChunk * kChunks - 37;

__global__ void scanChunk(const int *in, int *out, int n, int offset, int carry) {
  __shared__ int sums[kChunk];
  int i = offset + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < kChunk; d *= 2) {
    int add = threadIdx.x >= d ? sums[threadIdx.x - d] : 0;
    __syncthreads();
    sums[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n)
    out[i] = sums[threadIdx.x] + carry;
  if (threadIdx.x == 0 && offset + kChunk < n)
    scanChunk<<<1, blockDim.x>>>(in, out, n, offset + kChunk, carry + sums[kChunk - 1]);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  std::vector<int> in(kN);
  for (int &v : in)
    v = (int)rng.below(1000);
  int *dIn, *dOut;
  CHECK(cudaMalloc(&dIn, sizeof(int) * kN));
  CHECK(cudaMalloc(&dOut, sizeof(int) * kN));
  CHECK(cudaMemcpy(dIn, in.data(), sizeof(int) * kN, cudaMemcpyHostToDevice));
  auto run = [&] {
    CHECK(cudaMemset(dOut, 0xFF, sizeof(int) * kN));
    dim3 block(kChunk);
    scanChunk<<<1, block>>>(dIn, dOut, kN, 0, 0);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(kN);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(int) * kN, cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(int) * kN);
  int wrong = 0;
  for (int i = 0, sum = 0; i < kN; ++i) {
    sum += in[i];
    wrong += out[i] != sum;
  }
  std::printf("time_ms %.3f launch_failures %d wrong %d\n", ms, launchFailures(), wrong);
  return wrong == 0 ? 0 : 1;
}

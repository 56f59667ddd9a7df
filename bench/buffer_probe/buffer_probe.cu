// Probe of the CDP2 device runtime's launch buffers at the default
// pending-launch pool (2,048): do grids that ended but whose descendants
// have not hold buffer space? One case per process (a blocked launch hangs
// the process; run.sh gives each a timeout).
//   chain <depth> <bytes>: grid d's thread 0 launches grid d+1 (fire and
//     forget) with a <bytes>-byte argument, then ends; the last spins 50 ms.
//     Every grid above it has ended and waits for its descendants.
//   fan <grids> <bytes>: one grid's threads each launch a child that spins
//     20 ms: launches that have not started.
// Prints how deep (or how many) launches were made and how many failed.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ unsigned long long failures, made, deepest;

template <int Bytes> struct Payload {
  unsigned char bytes[Bytes];
};

__device__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < ns);
}

template <int Bytes> __global__ void hop(Payload<Bytes> p, int depth, int last) {
  atomicMax(&deepest, (unsigned long long)depth);
  if (depth == last) {
    spin(50000000ull);
    return;
  }
  p.bytes[0] ^= 1;
  hop<Bytes><<<1, 1, 0, cudaStreamFireAndForget>>>(p, depth + 1, last);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&failures, 1ull);
  else
    atomicAdd(&made, 1ull);
}

template <int Bytes> __global__ void leaf(Payload<Bytes> p) {
  if (p.bytes[0] != 255)
    spin(20000000ull);
}

template <int Bytes> __global__ void fan(int grids) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= grids)
    return;
  Payload<Bytes> p{};
  leaf<Bytes><<<1, 32, 0, cudaStreamFireAndForget>>>(p);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(&failures, 1ull);
  else
    atomicAdd(&made, 1ull);
}

template <int Bytes> void run(bool chain, int n) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  if (chain)
    hop<Bytes><<<1, 1>>>(Payload<Bytes>{}, 0, n);
  else
    fan<Bytes><<<(n + 127) / 128, 128>>>(n);
  cudaEventRecord(b);
  cudaError_t e = cudaDeviceSynchronize();
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  unsigned long long f = 0, m = 0, d = 0;
  cudaMemcpyFromSymbol(&f, failures, 8);
  cudaMemcpyFromSymbol(&m, made, 8);
  cudaMemcpyFromSymbol(&d, deepest, 8);
  size_t pool = 0;
  cudaDeviceGetLimit(&pool, cudaLimitDevRuntimePendingLaunchCount);
  std::printf("%s %d bytes %d pool %zu: made %llu failed %llu deepest %llu ms %.1f status %s\n",
              chain ? "chain" : "fan", n, Bytes, pool, m, f, d, ms, cudaGetErrorString(e));
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s chain|fan <n> 16|256\n", argv[0]);
    return 2;
  }
  bool chain = argv[1][0] == 'c';
  int n = std::atoi(argv[2]);
  if (std::atoi(argv[3]) == 256)
    run<256>(chain, n);
  else
    run<16>(chain, n);
  return 0;
}

// Which mixes of tail launches from one grid never finish (CUDA 13, H100)?
#include <cstdio>
#include <cstdlib>
__device__ unsigned cells[64];
__global__ void e1() {}
__global__ void e2(unsigned salt) { atomicAdd(&cells[salt % 64], 1u); }
__global__ void e3(unsigned salt) {
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&cells[(salt + 7) % 64], 1u);
}
__global__ void parent(int s1, int n2, int reps, int twoKinds, int e1blocks, int e1threads, int e2first) {
  unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
  if (e2first && (int)gtid < n2)
    e2<<<1, 1, 0, cudaStreamTailLaunch>>>(gtid + 3);
  if (s1 > 0 && gtid % s1 == 1)
    e1<<<e1blocks, e1threads, 0, cudaStreamTailLaunch>>>();
  for (int r = 0; r < reps; ++r)
    if ((int)gtid < n2) {
      e2<<<1, 1, 0, cudaStreamTailLaunch>>>(gtid);
      if (twoKinds)
        e2<<<1, 1, 0, cudaStreamTailLaunch>>>(gtid + 1);
      else
        e3<<<1, 32, 0, cudaStreamTailLaunch>>>(gtid);
    }
}
int main(int argc, char **argv) {
  int s1 = atoi(argv[1]), n2 = atoi(argv[2]), reps = atoi(argv[3]), two = atoi(argv[4]);
  int e1blocks = argc > 5 ? atoi(argv[5]) : 3, e1threads = argc > 6 ? atoi(argv[6]) : 64;
  int e2first = argc > 7 ? atoi(argv[7]) : 0;
  cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096);
  parent<<<4, 128>>>(s1, n2, reps, two, e1blocks, e1threads, e2first);
  cudaError_t e = cudaDeviceSynchronize();
  printf("s1=%d n2=%d reps=%d twoKinds=%d e1blocks=%d e1threads=%d e2first=%d: %s\n", s1, n2, reps,
         two, e1blocks, e1threads, e2first, cudaGetErrorString(e));
  return 0;
}

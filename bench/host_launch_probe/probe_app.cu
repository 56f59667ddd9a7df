// The parent and child the probe transforms: every parent thread launches a
// child over the same `n` elements (the sum tells whether every child ran).
__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&d[i], 1.0f);
}

__global__ void parent(float *d, const int *sizes, int parents) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < parents) {
    int n = sizes[p];
    child<<<(n + 127) / 128, 128>>>(d, n);
  }
}

void runCase(float *d, const int *sizes, int parents, cudaStream_t s) {
  parent<<<(parents + 255) / 256, 256, 0, s>>>(d, sizes, parents);
}

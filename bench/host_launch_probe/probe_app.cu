// The parent and child the probe transforms: every parent thread launches a
// child of `n` elements, at `d + p * stride`. With stride 0 every child adds
// to the same elements (atomics on shared addresses: the sum tells whether
// every child ran); with stride n each child has its own slice, the usual
// shape of independent child work.
__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&d[i], 1.0f);
}

__global__ void parent(float *d, const int *sizes, int parents, int stride) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < parents) {
    int n = sizes[p];
    child<<<(n + 127) / 128, 128>>>(d + (long long)p * stride, n);
  }
}

void runCase(float *d, const int *sizes, int parents, int stride, cudaStream_t s) {
  parent<<<(parents + 255) / 256, 256, 0, s>>>(d, sizes, parents, stride);
}

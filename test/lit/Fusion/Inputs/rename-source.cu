__global__ void scale(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= 2.0f; }
__global__ void shift(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += 1.0f; }
void step(float *a, int n) {
  scale<<<(n + 255) / 256, 256>>>(a, n);
  shift<<<(n + 255) / 256, 256>>>(a, n);
}

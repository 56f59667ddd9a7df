__global__ void smooth(const float *in, float *t, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) t[c] = in[c - 1] + in[c] + in[c + 1];
}
__global__ void gather(const float *t, float *a, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) a[c] = t[c - 1] - t[c + 1];
}
__global__ void sharpen(const float *in, float *t, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) t[c] = 2.0f * in[c] - in[c - 1] - in[c + 1];
}
__global__ void scale(const float *t, float *b, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) b[c] = 0.5f * t[c];
}

void run(const float *in, float *t, float *a, float *b, int n) {
  smooth<<<(n + 255) / 256, 256>>>(in, t, n);
  gather<<<(n + 255) / 256, 256>>>(t, a, n);
  sharpen<<<(n + 255) / 256, 256>>>(in, t, n);
  scale<<<(n + 255) / 256, 256>>>(t, b, n);
}

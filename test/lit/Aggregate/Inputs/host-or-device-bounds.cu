// A host-launched parent with launch bounds (Aggregate/host-or-device.cu).
constexpr int kThreads = 1024;

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

__global__ void __launch_bounds__(kThreads, 2) wide(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

void run(float *d, const int *sizes, int blocks) { wide<<<blocks, kThreads>>>(d, sizes); }

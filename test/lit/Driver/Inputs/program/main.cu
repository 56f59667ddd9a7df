// The parents of a two-file program: scale and normalise are defined in
// child.cu (separate compilation, -rdc).
#include "scale.cuh"

__global__ void fill(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = i + 1;
}

__global__ void fillRows(float *data, int rows, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    fill<<<(width + 127) / 128, 128>>>(data + row * width, width);
}

__global__ void scaleRows(float *data, int rows, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    scale<<<(width + 127) / 128, 128>>>(data + row * width, width, 2.0f);
}

__global__ void normaliseRows(float *data, int rows, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    normalise<<<(width + 127) / 128, 128>>>(data + row * width, width);
}

int main() {
  float *data;
  cudaMalloc(&data, sizeof(float) * 64 * 64);
  fillRows<<<1, 64>>>(data, 64, 64);
  scaleRows<<<1, 64>>>(data, 64, 64);
  normaliseRows<<<1, 64>>>(data, 64, 64);
  cudaDeviceSynchronize();
  return 0;
}

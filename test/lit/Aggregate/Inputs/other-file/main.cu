// The parents of a two-file program: their children are defined in child.cu.
#include "rows.cuh"

__global__ void addRows(const float *in, float *out, int rows, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    addRow<<<(width + 127) / 128, 128>>>(in + row * width, out + row * width, width);
}

__global__ void spreadRows(float *out, int rows, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    spreadRow<<<1, 32>>>(out + row * width, width);
}

int main() {
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * 64 * 64);
  cudaMalloc(&out, sizeof(float) * 64 * 64);
  spreadRows<<<1, 64>>>(in, 64, 64);
  addRows<<<1, 64>>>(in, out, 64, 64);
  cudaDeviceSynchronize();
  return 0;
}

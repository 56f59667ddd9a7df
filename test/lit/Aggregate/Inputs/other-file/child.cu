// Children of main.cu's parents. addRow is launched here too; spreadRow
// launches a kernel itself.
#include "rows.cuh"

__global__ void addRow(const float *in, float *out, const int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += in[i];
}

__global__ void addRowsHere(const float *in, float *out, int rows, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    addRow<<<(width + 127) / 128, 128>>>(in, out + row * width, width);
}

__global__ void setRow(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

__global__ void spreadRow(float *out, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    setRow<<<(n + 127) / 128, 128>>>(out, n);
}

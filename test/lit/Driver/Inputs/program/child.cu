// Children of main.cu's parent, and a parent of its own whose launches are
// aggregated: both outputs then use the record pool, which they share.
#include "scale.cuh"

__global__ void scale(float *data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

__global__ void normalise(float *data, int n) {
  __shared__ float peak;
  if (threadIdx.x == 0)
    peak = data[0];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] /= peak;
}

__global__ void clear(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = 0;
}

__global__ void clearRows(float *data, int rows, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    clear<<<(width + 127) / 128, 128>>>(data + row * width, width);
}

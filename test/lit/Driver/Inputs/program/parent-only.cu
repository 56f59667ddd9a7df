// A file whose only launch is of a child child.cu defines: the output still
// defines the macros its rewritten launch reads.
#include "scale.cuh"

__global__ void scaleAll(float *data, int n) { scale<<<(n + 127) / 128, 128>>>(data, n, 0.5f); }

int main() {
  float *data;
  cudaMalloc(&data, sizeof(float) * 256);
  scaleAll<<<1, 1>>>(data, 256);
  cudaDeviceSynchronize();
  return 0;
}

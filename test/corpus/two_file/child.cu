// The child kernel of the two-file program.
#include "histogram.cuh"

__global__ void binRow(const int *values, int begin, int end, unsigned *histogram) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end)
    atomicAdd(&histogram[values[i] % kBins], 1u);
}

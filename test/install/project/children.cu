#include "children.h"
#include "scale.h"

__global__ void fill(int *row, int width, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < width)
    row[i] = value * CHILD_SCALE;
}

__global__ void parent(int *out, int parents, int width) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < parents)
    fill<<<(width + 63) / 64, 64>>>(out + p * width, width, p);
}

void runChildren(int *out, int parents, int width) {
  parent<<<(parents + 31) / 32, 32>>>(out, parents, width);
}

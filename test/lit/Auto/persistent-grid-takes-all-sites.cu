// A persistent parent grid records every launch of its parent or none (a
// cooperative kernel cannot launch). Mariani-Silver's shape: a region is
// filled, split by a launch of itself, or computed pixel by pixel. Launch
// removal would record all three in one grid; --auto weighs the three
// launches as one group, where alone it priced aggregation cheapest for the
// recursion and removal for the others, a mix that keeps every launch.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-compile %t.cu
// CHECK: ('region' -> 'fill'): auto: applied
// CHECK: choice: R:auto
// CHECK: ('region' -> 'region'): auto: applied
// CHECK: choice: R:auto
// CHECK: program: the launches at line [[#]], line [[#]], line [[#]] take one candidate ({{.*}}one persistent grid records them all), R:auto, the cheapest for all of them, so not T+C+A:grid
// CHECK: ('region' -> 'pixels'): auto: applied
// CHECK: choice: R:auto
// CHECK: ('region' -> 'fill'): remove-launches: applied
// CHECK: ('region' -> 'region'): remove-launches: applied
// CHECK: ('region' -> 'pixels'): remove-launches: applied
#include <cuda_runtime.h>

constexpr int kWidth = 1024;

__host__ __device__ int valueAt(int x, int y) { return ((x / 37) ^ (y / 23)) & 3; }

__global__ void fill(int *out, int x0, int y0, int v) {
  int x = x0 + blockIdx.x * blockDim.x + threadIdx.x, y = y0 + blockIdx.y;
  out[y * kWidth + x] = v;
}

__global__ void pixels(int *out, int x0, int y0) {
  int x = x0 + threadIdx.x, y = y0 + blockIdx.x;
  out[y * kWidth + x] = valueAt(x, y) + 4;
}

__global__ void region(int *out, int x0, int y0, int size) {
  int sx = x0 + blockIdx.x * size, sy = y0 + blockIdx.y * size;
  if (threadIdx.x != 0)
    return;
  int v = valueAt(sx, sy);
  bool same = valueAt(sx + size - 1, sy) == v && valueAt(sx, sy + size - 1) == v &&
              valueAt(sx + size - 1, sy + size - 1) == v;
  if (same)
    fill<<<dim3(size > 32 ? size / 32 : 1, size), size > 32 ? 32 : size>>>(out, sx, sy, v);
  else if (size > 16)
    region<<<dim3(2, 2), 32>>>(out, sx, sy, size / 2);
  else
    pixels<<<size, size>>>(out, sx, sy);
}

void run(int *out) { region<<<dim3(16, 16), 32>>>(out, 0, 0, 64); }

// A child whose threads run a loop of a few constant trips (a quadratic
// Bezier basis, 3 terms) does a bounded amount of work per thread: --auto
// keeps the break-even threshold (small children run in the parent thread)
// instead of launching every child as it does for a child whose loops grow
// with the data. The parent allocates each child's output with device-side
// cudaMalloc before the launch, as the tessellation sample does.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-compile %t.cu
// CHECK: ('lines' -> 'positions'): auto: applied
// CHECK: child: independent threads{{$}}
// CHECK: model: threshold: 128 (launch latency
#include <cuda_runtime.h>

struct Line {
  float2 cp[3];
  float2 *vertices;
};

__global__ void positions(Line *all, int line, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float u = float(i) / float(n - 1), v = 1.0f - u;
  float basis[3] = {v * v, 2.0f * u * v, u * u};
  float2 p = make_float2(0.0f, 0.0f);
  for (int k = 0; k < 3; ++k) {
    p.x += basis[k] * all[line].cp[k].x;
    p.y += basis[k] * all[line].cp[k].y;
  }
  all[line].vertices[i] = p;
}

__global__ void lines(Line *all, int count) {
  int line = blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= count)
    return;
  int n = 4 + line % 29;
  cudaMalloc((void **)&all[line].vertices, n * sizeof(float2));
  positions<<<(n + 31) / 32, 32>>>(all, line, n);
}

int main(int argc, char **) {
  Line *all;
  int count = 10000 * argc;
  cudaMalloc(&all, count * sizeof(Line));
  lines<<<(count + 63) / 64, 64>>>(all, count);
  cudaDeviceSynchronize();
  return 0;
}

// A kernel that launches itself, started by the host: --auto weighs
// thresholding (with its depth guard), coarsening and aggregation against
// launch removal's persistent grid, which the host's launch starts, and the
// report prices each: the two are within a few microseconds of each other
// for this child (71 and 73 us), and the removal the measured recursive apps
// (ms, qt) ran fastest with wins. The output compiles.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-compile %t.cu
// CHECK: ('walk' -> 'walk'): auto: applied
// CHECK:   child: independent threads, recursive
// CHECK:   choice: R:auto ({{[0-9]+}} us)
// CHECK:   rejected: {{.*}}T+C+A:multiblock:8: {{[0-9]+}} us
// CHECK: remove-launches: applied
#include <cuda_runtime.h>

__global__ void walk(int *out, const int *next, int n, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] += depth;
  int m = next[i];
  if (depth < 3 && m > 0)
    walk<<<(m + 127) / 128, 128>>>(out, next, m, depth + 1);
}

int main() {
  int *out, *next;
  cudaMalloc(&out, 1 << 12);
  cudaMalloc(&next, 1 << 12);
  walk<<<1, 256>>>(out, next, 256, 0);
  cudaDeviceSynchronize();
  return 0;
}

// A child whose threads loop over data (a list intersection) costs, run in a
// parent thread, its threads times their trips: --auto launches every child
// (threshold 1) and does not coarsen it, as the tuned triangle count does. A
// child without a loop keeps the break-even threshold.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %FileCheck %s --check-prefix=OUT < %t.cu
// RUN: %nvcc-compile %t.cu
// CHECK: ('vertices' -> 'intersect'): auto: applied
// CHECK:   child: independent threads, loops
// CHECK:   model: threshold: 1 (the child's threads loop{{.*}}; coarsen-factor: 1 (the child's threads loop
// OUT: #define LAUNCHOPT_CFACTOR 1
// OUT: #define LAUNCHOPT_THRESHOLD 1
#include <cuda_runtime.h>

__global__ void intersect(const int *rows, const int *cols, int u, int begin, int end,
                          unsigned long long *count) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= end)
    return;
  int v = cols[e];
  int i = e + 1, j = rows[v], je = rows[v + 1];
  unsigned long long c = 0;
  while (i < end && j < je) {
    int a = cols[i], b = cols[j];
    c += a == b;
    i += a <= b;
    j += b <= a;
  }
  if (c)
    atomicAdd(count, c);
}

__global__ void vertices(const int *rows, const int *cols, int n, unsigned long long *count) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n)
    return;
  int begin = rows[u], end = rows[u + 1];
  if (end - begin > 1)
    intersect<<<(end - begin + 31) / 32, 32>>>(rows, cols, u, begin, end, count);
}

int main(int argc, char **) {
  int n = 1000 * argc; // the graph's size is the input's: the nominal parent grid
  int *rows, *cols;
  unsigned long long *count;
  cudaMalloc(&rows, 1 << 12);
  cudaMalloc(&cols, 1 << 16);
  cudaMalloc(&count, 8);
  vertices<<<(n + 255) / 256, 256>>>(rows, cols, n, count);
  cudaDeviceSynchronize();
  return 0;
}

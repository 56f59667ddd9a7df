// Two launch sites of one file get different choices, and each pass takes
// only the sites the plan gives it: the small constant child is removed, the
// child of a data-dependent size is thresholded and aggregated; each pass's
// remark at the other site names the plan (the removed launch is gone for
// the passes after removal). The sites are in two parents: one persistent
// grid would record both launches of one parent or neither
// (persistent-grid-takes-all-sites.cu); the second parent is launched in
// another file, so no persistent grid of it is made here. The output
// compiles.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-compile %t.cu
// CHECK-DAG: ('parentSmall' -> 'small'): auto: applied
// CHECK-DAG: ('parent' -> 'rows'): auto: applied
// CHECK-DAG: ('parentSmall' -> 'small'): remove-launches: applied
// CHECK-DAG: ('parent' -> 'rows'): remove-launches: not applied: {{.*}}--auto chose T+C+A:{{[a-z:0-9]+}} for this launch
// CHECK-DAG: ('parent' -> 'rows'): threshold: applied
// CHECK-DAG: ('parent' -> {{.*}}rows'): aggregate: applied
#include <cuda_runtime.h>

__global__ void small(int *out) { out[threadIdx.x] += 1; }

__global__ void rows(int *out, const int *begin, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    out[begin[0] + i] += 2;
}

__global__ void parentSmall(int *out) { small<<<1, 16>>>(out); }

__global__ void parent(int *out, const int *begin, const int *sizes) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = sizes[t];
  rows<<<(n + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(out, begin + t, n);
}

int main() {
  int *out, *begin, *sizes;
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&begin, 1 << 12);
  cudaMalloc(&sizes, 1 << 12);
  parentSmall<<<4, 64>>>(out);
  cudaDeviceSynchronize();
  return 0;
}

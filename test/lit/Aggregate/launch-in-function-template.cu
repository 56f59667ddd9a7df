// A launch of a template kernel written in a function template: the kernels
// whose blocks would gather it cannot name the child's template arguments
// (the function's template parameters), so aggregation leaves it with the
// reason; --auto takes another candidate, whose output compiles.
// RUN: %launchopt --aggregate=block %s -o %t.cu --report %t.txt 2> /dev/null
// RUN: %FileCheck %s < %t.txt
// RUN: %launchopt --auto %s -o %t.auto.cu 2> /dev/null
// RUN: %nvcc-compile %t.auto.cu
#include <cuda_runtime.h>

template <int Add> __global__ void child(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += Add;
}

template <int Add> __device__ void launchChild(float *v, int n) {
  child<Add><<<(n + 127) / 128, 128>>>(v, n);
}

__global__ void parent(float *v, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 16)
    launchChild<2>(v + t * n, n);
}

void run(float *v) { parent<<<1, 32>>>(v, 256); }

// CHECK: ('launchChild' -> 'child'): aggregate: not applied: the launch of a template kernel is in the function template 'launchChild': the kernels that would gather it cannot name the child's template arguments

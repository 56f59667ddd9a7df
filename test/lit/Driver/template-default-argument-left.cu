// A template parent's launch of a template child that leaves a default
// argument to the child: in the template the call is not resolved, yet the
// launch still relies on the default, which the generated calls would not
// repeat. Every pass leaves it with the reason, and --auto's output compiles.
// RUN: %launchopt --threshold %s -o %t.t.cu --report %t.t.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=THRESHOLD < %t.t.txt
// RUN: %launchopt --aggregate=block %s -o %t.a.cu --report %t.a.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=AGGREGATE < %t.a.txt
// RUN: %launchopt --auto %s -o %t.auto.cu 2> /dev/null
// RUN: %nvcc-compile %t.auto.cu
#include <cuda_runtime.h>

template <typename T> __global__ void child(T *data, int n, T bias = T(0)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += bias;
}

template <typename T> __global__ void parent(T *data, const int *lengths, int rows, int stride) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int n = lengths[r];
  child<T><<<(n + 127) / 128, 128>>>(data + r * stride, n);
}

void run(float *data, const int *lengths) { parent<<<1, 8>>>(data, lengths, 8, 1024); }

// THRESHOLD: ('parent' -> 'child'): threshold: not applied: the launch relies on default arguments of the child
// AGGREGATE: ('parent' -> 'child'): aggregate: not applied: the launch relies on default arguments of the child

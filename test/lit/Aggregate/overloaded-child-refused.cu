// Two kernels that overload one name, both launched from a parent:
// aggregation and launch removal's T1-T3 name their argument records after
// the child, so they leave such launches with the reason; thresholding
// generates overloads of its copies and takes them.
// RUN: %launchopt --aggregate=block %s -o %t.a.cu --report %t.a.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=AGGREGATE < %t.a.txt
// RUN: %launchopt --remove-launches=T3 %s -o %t.r.cu --report %t.r.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=REMOVE < %t.r.txt
// RUN: %launchopt --threshold %s -o %t.t.cu --report %t.t.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=THRESHOLD < %t.t.txt
// RUN: %nvcc-compile %t.t.cu
// RUN: %launchopt --auto %s -o %t.auto.cu 2> /dev/null
// RUN: %nvcc-compile %t.auto.cu
#include <cuda_runtime.h>

__global__ void scale(float *p, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= f;
}

__global__ void scale(double *p, int n, double f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= f;
}

__global__ void parent(float *a, double *b, const int *lengths, int rows, int stride) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int n = lengths[r];
  scale<<<(n + 127) / 128, 128>>>(a + r * stride, n, 2.0f);
  scale<<<(n + 127) / 128, 128>>>(b + r * stride, n, 2.0);
}

void run(float *a, double *b, const int *lengths) { parent<<<1, 8>>>(a, b, lengths, 8, 1024); }

// AGGREGATE: ('parent' -> 'scale'): aggregate: not applied: another kernel overloads the child's name 'scale', after which this pass names what it generates for the child
// AGGREGATE: ('parent' -> 'scale'): aggregate: not applied: another kernel overloads
// REMOVE: ('parent' -> 'scale'): remove-launches: not applied: another kernel overloads
// THRESHOLD: ('parent' -> 'scale'): threshold: applied
// THRESHOLD: ('parent' -> 'scale'): threshold: applied

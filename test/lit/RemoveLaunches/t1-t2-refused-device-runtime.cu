// A cooperatively launched kernel cannot use the device runtime: where
// device code calls it (here a device-side cudaMalloc), T1/T2 leave the
// launch, and auto falls back to T4.
// RUN: %launchopt --remove-launches=T1 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=T1 < %t.remarks
// RUN: %launchopt --remove-launches %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=AUTO < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cuda_runtime.h>

__global__ void fill(float *points, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    points[k] = k;
}

__global__ void lines(const int *sizes, float **buffers) {
  int n = sizes[threadIdx.x];
  float *points = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&points), sizeof(float) * n) != cudaSuccess)
    return;
  buffers[threadIdx.x] = points;
  fill<<<(n + 31) / 32, 32>>>(points, n);
}

// Only what the persistent grid runs matters: this parent's twin never
// reaches the cudaMalloc above.
__global__ void refill(const int *sizes, float **buffers) {
  int n = sizes[threadIdx.x];
  fill<<<(n + 31) / 32, 32>>>(buffers[threadIdx.x], n);
}

void run(const int *sizes, float **buffers) {
  lines<<<1, 64>>>(sizes, buffers);
  refill<<<1, 64>>>(sizes, buffers);
}

// T1: :23:3: remark: not removed: device code the persistent grid runs calls the device runtime (cudaMalloc at line 20): the grid is launched cooperatively, and a cooperative kernel cannot use it
// T1: :30:3: remark: remove-launches applied to launch of 'fill' (function: __lo_persistent_refill,
// AUTO: :23:3: remark: remove-launches applied to launch of 'fill' ({{.*}}version: T4 (CKi -> PTi))
// AUTO: :30:3: remark: remove-launches applied to launch of 'fill' ({{.*}}version: megakernel

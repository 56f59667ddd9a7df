// A child kernel defined in an included header is thresholded: its serial
// copy goes right after the #include, in the child's namespace, written from
// the header's text; the header itself is not edited. A header child whose
// callees read the built-in index variables is refused, with the reason.
// RUN: %launchopt --threshold %s -o %t.cu --report=%t.txt -- -I%S/Inputs
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %nvcc-compile -I%S/Inputs %t.cu

#include "header-children.cuh"

__global__ void wide(float *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  if (n > 0)
    kern::scaleRange<<<(n + 255) / 256, 256>>>(cells + threadIdx.x * 4096, n);
}

__global__ void filled(int *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  kern::fillRange<int><<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n, 7);
}

__global__ void cleared(float *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  kern::clearRange<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);
}

// CHECK: #include "header-children.cuh"
// CHECK-NEXT: namespace kern {
// CHECK: static __device__ void __lo_serial_scaleRange(float *cells, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK: // launchopt: every thread of a 'fillRange' grid, one after another (serial version).
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: static __device__ void __lo_serial_fillRange(T *cells, int n, T value, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-LABEL: __global__ void wide(
// CHECK: kern::__lo_serial_scaleRange(cells + threadIdx.x * 4096, n, __lo_grid1, __lo_block1);
// CHECK-LABEL: __global__ void filled(
// CHECK: kern::__lo_serial_fillRange<int>(
// CHECK-LABEL: __global__ void cleared(
// CHECK-NEXT: int n = sizes[threadIdx.x];
// CHECK-NEXT: kern::clearRange<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);

// REPORT: ('wide' -> 'scaleRange'): threshold: applied
// REPORT: ('filled' -> 'fillRange'): threshold: applied
// REPORT: ('cleared' -> 'clearRange'): threshold: not applied: the child kernel is defined in an included header and calls functions that read the built-in index variables (globalIndex), which its copy here cannot redirect

// T4 removes the launch of a child kernel defined in an included header: the
// copy that runs one child thread goes right after the #include, in the
// child's namespace, written from the header's text. auto picks T4 there
// (T1-T3 refuse a header's child); a header child whose callees read the
// built-in index variables is refused.
// RUN: %launchopt --remove-launches=T4 %s -o %t.cu --report=%t.txt -- -I%S/../Threshold/Inputs
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.cu
// RUN: %launchopt --remove-launches=auto %s -o %t.auto.cu --report=%t.auto.txt -- -I%S/../Threshold/Inputs
// RUN: %FileCheck %s --check-prefix=AUTO < %t.auto.txt

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
// CHECK-DAG: static __device__ void __lo_inline_scaleRange(float *cells, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-DAG: static __device__ void __lo_inline_fillRange(T *cells, int n, T value, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-LABEL: __global__ void wide(
// CHECK: kern::__lo_inline_scaleRange(
// CHECK-LABEL: __global__ void filled(
// CHECK: kern::__lo_inline_fillRange<int>(
// CHECK-LABEL: __global__ void cleared(
// CHECK-NEXT: int n = sizes[threadIdx.x];
// CHECK-NEXT: kern::clearRange<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);

// REPORT: ('wide' -> 'scaleRange'): remove-launches: applied
// REPORT-NEXT: copied-after: the #include of the header that defines it
// REPORT: ('filled' -> 'fillRange'): remove-launches: applied
// REPORT: ('cleared' -> 'clearRange'): remove-launches: not applied: the child kernel is defined in an included header and calls functions that read the built-in index variables (globalIndex), which its copy here cannot redirect

// AUTO: ('wide' -> 'scaleRange'): remove-launches: applied
// AUTO-NEXT: auto: T4 (CKi -> PTi)

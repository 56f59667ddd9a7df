// A child kernel defined in an included header is spawn-controlled: its
// serial copy and spawned kernel go right after the #include, in the
// child's namespace, written from the header's text; a child whose block
// works together gets its spawned kernel there too (deferred when refused).
// A header child whose callees read the built-in index variables is refused.
// RUN: %launchopt --spawn %s -o %t.cu --report=%t.txt -- -I%S/../Threshold/Inputs
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.cu

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

__global__ void summed(float *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  kern::blockSums<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);
}

// CHECK: #include "header-children.cuh"
// CHECK-NEXT: namespace kern {
// CHECK-DAG: static __device__ void __lo_spawn_serial_scaleRange(float *cells, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-DAG: __global__ void __lo_spawned_scaleRange(
// CHECK-DAG: static __device__ void __lo_spawn_serial_fillRange(T *cells, int n, T value, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-DAG: __global__ void __lo_spawned_blockSums(
// CHECK-LABEL: __global__ void wide(
// CHECK: kern::__lo_spawn_serial_scaleRange(
// CHECK-LABEL: __global__ void filled(
// CHECK: kern::__lo_spawn_serial_fillRange<int>(
// CHECK-LABEL: __global__ void cleared(
// CHECK-NEXT: int n = sizes[threadIdx.x];
// CHECK-NEXT: kern::clearRange<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);
// CHECK-LABEL: __global__ void summed(
// CHECK: kern::__lo_spawned_blockSums<<<

// REPORT: ('wide' -> 'scaleRange'): spawn: applied
// REPORT-NEXT: copied-after: the #include of the header that defines it
// REPORT: ('filled' -> 'fillRange'): spawn: applied
// REPORT-NEXT: copied-after: the #include of the header that defines it
// REPORT: ('cleared' -> 'clearRange'): spawn: not applied: the child kernel is defined in an included header and calls functions that read the built-in index variables (globalIndex), which its copy here cannot redirect
// REPORT: ('summed' -> 'blockSums'): spawn: applied
// REPORT-NEXT: copied-after: the #include of the header that defines it
// REPORT-NEXT: deferred-when-refused: child uses __syncthreads

// A child kernel defined in an included header is coarsened: its coarsened
// copy goes right after the #include, in the child's namespace, written from
// the header's text (the header is not edited). A header child whose callees
// read the built-in index variables is left, with the reason.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks -- -I%S/../Threshold/Inputs
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.cu
// RUN: %launchopt --threshold --coarsen --aggregate=block %s -o %t.tca.cu 2> /dev/null -- -I%S/../Threshold/Inputs
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.tca.cu

#include "header-children.cuh"
// CHECK: #include "header-children.cuh"
// CHECK-NEXT: namespace kern {
// CHECK: __global__ void __lo_coarse_scaleRange(float *cells, int n,
// CHECK: __global__ void __lo_coarse_fillRange(

// CHECK-LABEL: __global__ void wide(
// CHECK: kern::__lo_coarse_scaleRange<<<
__global__ void wide(float *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  if (n > 0)
    kern::scaleRange<<<(n + 255) / 256, 256>>>(cells + threadIdx.x * 4096, n);
}
// REMARKS: child-in-header.cu:[[@LINE-2]]:5: remark: coarsen applied to launch of 'scaleRange'

__global__ void filled(int *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  kern::fillRange<int><<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n, 7);
}

__global__ void cleared(float *cells, const int *sizes) {
  int n = sizes[threadIdx.x];
  kern::clearRange<<<(n + 127) / 128, 128>>>(cells + threadIdx.x * 4096, n);
}
// REMARKS: child-in-header.cu:[[@LINE-2]]:3: remark: not coarsened: the child kernel, defined in an included header, calls functions that read the built-in index variables (or queries cooperative groups): its copy after the #include cannot pass them the original launch's values

int main() {
  wide<<<1, 32>>>(nullptr, nullptr);
  filled<<<1, 32>>>(nullptr, nullptr);
  cleared<<<1, 32>>>(nullptr, nullptr);
  cudaDeviceSynchronize();
  return 0;
}

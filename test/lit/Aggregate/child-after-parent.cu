// A child defined after its parent (declared before it): the argument struct
// goes before the parent, which records launches into it; the aggregated
// kernel follows the child.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n);

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  child<<<(n + 63) / 64, 64>>>(d, n);
}

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

// CHECK: struct __lo_args_child {
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: sizeof(__lo_args_child)
// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-LABEL: __global__ void child(float *d, int n) {
// CHECK-LABEL: __global__ void __lo_agg_child(

// REMARK: child-after-parent.cu:13:3: remark: aggregate applied to launch of 'child'

// A child declared before the parent and defined after it: the serial copy's
// prototype is inserted before the parent.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d, int n);

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

// CHECK: __global__ void child(int *d, int n);
// CHECK-EMPTY:
// CHECK-NEXT: static __device__ void __lo_serial_child(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim);
// CHECK-EMPTY:
// CHECK-NEXT: __global__ void parent(int *d, const int *sizes) {
// CHECK: __lo_serial_child(d, n, __lo_grid1, __lo_block1);
// CHECK: __global__ void child(int *d, int n) {
// CHECK: static __device__ void __lo_serial_child(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-NEXT: {

// REMARK: child-defined-after-parent.cu:12:3: remark: threshold applied to launch of 'child'

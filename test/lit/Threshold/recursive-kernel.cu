// A kernel that launches itself: the serial copy is defined after the kernel,
// so a prototype goes before it.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void halve(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] /= 2;
  if (i == 0 && n > 1)
    halve<<<(n / 2 + 31) / 32, 32>>>(d, n / 2);
}

// CHECK: static __device__ void __lo_serial_halve(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim);
// CHECK-EMPTY:
// CHECK-NEXT: __global__ void halve(int *d, int n) {
// CHECK: const auto __lo_n1_x = (n / 2);
// CHECK: halve<<<__lo_grid1, __lo_block1>>>(d, n / 2);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_halve(d, n / 2, __lo_grid1, __lo_block1);
// CHECK: static __device__ void __lo_serial_halve(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-NEXT: {

// REMARK: recursive-kernel.cu:13:5: remark: threshold applied to launch of 'halve'

// A child that launches again: both launches are thresholded; the serial copy
// of the middle kernel still launches the leaf.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void leaf(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void middle(int *d, const int *sizes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    leaf<<<(sizes[i] + 31) / 32, 32>>>(d, sizes[i]);
}

__global__ void parent(int *d, const int *sizes, const int *counts) {
  int n = counts[threadIdx.x];
  middle<<<(n + 63) / 64, 64>>>(d, sizes, n);
}

// CHECK-LABEL: __global__ void middle(
// CHECK: leaf<<<__lo_grid1, __lo_block1>>>(d, sizes[i]);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_leaf(d, sizes[i], __lo_grid1, __lo_block1);
// CHECK-LABEL: static __device__ void __lo_thread_middle(
// CHECK: leaf<<<{{.*}}>>>(d, sizes[i]);
// CHECK-LABEL: __global__ void parent(
// CHECK: middle<<<__lo_grid2, __lo_block2>>>(d, sizes, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_middle(d, sizes, n, __lo_grid2, __lo_block2);

// REMARK: nested-child-launches.cu:17:5: remark: threshold applied to launch of 'leaf'
// REMARK: nested-child-launches.cu:22:3: remark: threshold applied to launch of 'middle'

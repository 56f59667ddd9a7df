// `if (c) child<<<...>>>(...); else ...`: the launch becomes a block, so the
// if and its else stay valid.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  if (n > 0)
    child<<<(n + 31) / 32, 32>>>(d, n);
  else
    d[threadIdx.x] = -1;
}

// CHECK-LABEL: __global__ void parent(
// CHECK-NEXT: int n = sizes[threadIdx.x];
// CHECK-NEXT: if (n > 0)
// CHECK-NEXT: { // launchopt: thresholded launch of 'child'
// CHECK: __lo_serial_child(d, n, __lo_grid1, __lo_block1);
// CHECK-NEXT: }
// CHECK-NEXT: else
// CHECK-NEXT: d[threadIdx.x] = -1;

// REMARK: launch-in-branch-without-braces.cu:17:5: remark: threshold applied to launch of 'child'

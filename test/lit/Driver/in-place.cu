// Without --in-place the input is never modified; with it the file is
// rewritten.
// RUN: cp %s %t.cu
// RUN: %launchopt --threshold %t.cu -o %t.out.cu 2> /dev/null
// RUN: diff %s %t.cu
// RUN: %launchopt --threshold --in-place %t.cu 2> /dev/null
// RUN: diff %t.out.cu %t.cu
// RUN: %FileCheck %s < %t.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 0;
}
__global__ void parent(int *d, int n) { child<<<(n + 31) / 32, 32>>>(d, n); }

// CHECK: #define LAUNCHOPT_THRESHOLD
// CHECK: __lo_serial_child(d, n, __lo_grid1, __lo_block1);

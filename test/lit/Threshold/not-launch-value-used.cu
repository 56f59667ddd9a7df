// A launch whose value is used (here cast to void) is not a statement of its own: a block cannot replace it.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  d[threadIdx.x] = 0.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  (void)child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-launch-value-used.cu:[[@LINE-3]]:9: remark: not thresholded: the launch is not a statement of its own (its value is used, or it is a for-loop's init or increment)

// A child declared but not defined in this translation unit has no body to copy.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n);

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-child-undefined.cu:[[@LINE-3]]:3: remark: not thresholded: the definition of 'child' is not in this translation unit

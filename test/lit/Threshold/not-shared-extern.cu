// A child with dynamic (extern) __shared__ memory is left untouched.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = d[threadIdx.x];
  d[threadIdx.x] = buffer[0];
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32, 32 * sizeof(float)>>>(d, n);
}

// CHECK: not-shared-extern.cu:[[@LINE-3]]:3: remark: not thresholded: child uses shared memory

// A child with static __shared__ memory is left untouched.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  __shared__ float tile[32];
  tile[threadIdx.x] = d[threadIdx.x];
  d[threadIdx.x] = tile[31 - threadIdx.x];
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-shared-static.cu:[[@LINE-3]]:3: remark: not thresholded: child uses shared memory

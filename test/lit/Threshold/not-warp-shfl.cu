// A child with a warp shuffle is left untouched.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  float v = d[threadIdx.x];
  v += __shfl_down_sync(0xffffffffu, v, 1);
  d[threadIdx.x] = v;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-warp-shfl.cu:[[@LINE-3]]:3: remark: not thresholded: child uses warp primitive __shfl_down_sync

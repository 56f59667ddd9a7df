// A child with a warp vote is left untouched.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  unsigned mask = __ballot_sync(0xffffffffu, d[threadIdx.x] > 0.0f);
  d[threadIdx.x] = mask;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-warp-ballot.cu:[[@LINE-3]]:3: remark: not thresholded: child uses warp primitive __ballot_sync

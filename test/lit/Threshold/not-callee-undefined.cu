// A child that calls a function defined in another translation unit: what it does is unknown.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__device__ float transform(float);
__global__ void child(float *d, int n) {
  d[threadIdx.x] = transform(d[threadIdx.x]);
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-callee-undefined.cu:[[@LINE-3]]:3: remark: not thresholded: child calls 'transform', whose definition is not in this translation unit

// A child with a barrier cannot run its threads one after another.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  d[threadIdx.x] = 1.0f;
  __syncthreads();
  d[blockDim.x - 1 - threadIdx.x] += 1.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-syncthreads.cu:[[@LINE-3]]:3: remark: not thresholded: child uses __syncthreads

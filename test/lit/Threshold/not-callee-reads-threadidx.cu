// A child that calls a device function reading threadIdx: the serial copy could not redirect what that function sees.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
__global__ void child(float *d, int n) {
  if (gid() < n)
    d[gid()] = 0.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-callee-reads-threadidx.cu:[[@LINE-3]]:3: remark: not thresholded: child calls 'gid', which reads the built-in index variables itself

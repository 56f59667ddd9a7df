// A launch that relies on the child's default arguments: the serial copy has none, and the default's text need not mean the same at the launch.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n = 32) {
  if (threadIdx.x < n)
    d[threadIdx.x] = 0.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d);
}

// CHECK: not-default-arguments.cu:[[@LINE-3]]:3: remark: not thresholded: the launch relies on default arguments of the child

// A tail launch must run after the whole parent grid; serializing it would not.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d, int n) {
  d[threadIdx.x] = 0.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32, 0, cudaStreamTailLaunch>>>(d, n);
}

// CHECK: not-tail-launch.cu:[[@LINE-3]]:3: remark: not thresholded: the child is tail-launched: it must run after the whole parent grid

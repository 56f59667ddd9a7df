// A launch from host code is not thresholded: the pass is about device-side launches.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks

__global__ void child(float *d, int n) {
  d[threadIdx.x] = 0.0f;
}

void host(float *d, int n) {
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-host-side.cu:11:3: remark: not thresholded: host-side launch: thresholding applies to launches from device code

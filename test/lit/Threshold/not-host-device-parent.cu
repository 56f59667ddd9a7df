// A __host__ __device__ parent is also compiled for the host, where the
// __device__ serial copy cannot be called.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks

__global__ void child(float *d, int n) {
  d[threadIdx.x] = 0.0f;
}

__host__ __device__ void launch_anywhere(float *d, int n) {
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: not-host-device-parent.cu:12:3: remark: not thresholded: the parent is a __host__ __device__ function; the serial copy is device-only

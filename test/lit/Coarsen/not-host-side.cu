// A launch from host code is left as written.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks
__global__ void child(float *d) { d[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

void host(float *d, int n) {
  child<<<(n + 127) / 128, 128>>>(d);
}

// CHECK: not-host-side.cu:[[@LINE-3]]:3: remark: not coarsened: host-side launch: coarsening applies to launches from device code

// A child that needs its block together cannot run in the parent thread, and
// here cannot be deferred either: the file tail-launches a kernel from device
// code, which could run before the drain's children. The launch is left as
// written, with both reasons; nothing is added.
// RUN: %launchopt --spawn %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %FileCheck %s < %t.cu

__global__ void child(int *d) {
  d[threadIdx.x] += 1;
  __syncthreads();
  d[threadIdx.x] += d[0];
}

__global__ void collect(int *d) { d[0] = 0; }

__global__ void parent(int *d) {
  child<<<1, 32>>>(d);
  collect<<<1, 1, 0, cudaStreamTailLaunch>>>(d);
}

// REMARK: not-deferred-tail-launch.cu:18:3: remark: not spawn-controlled: child uses __syncthreads; not deferred either: device code of this file tail-launches kernels, which could run before the deferred child
// CHECK-NOT: __lo_spawn
// CHECK: child<<<1, 32>>>(d);

// A child that needs its block together cannot run in the parent thread:
// the launch is left as written, with the reason; nothing is added.
// RUN: %launchopt --spawn %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %FileCheck %s < %t.cu

__global__ void child(int *d) {
  d[threadIdx.x] += 1;
  __syncthreads();
  d[threadIdx.x] += d[0];
}

__global__ void parent(int *d) { child<<<1, 32>>>(d); }

// REMARK: not-syncthreads.cu:13:34: remark: not spawn-controlled: child uses __syncthreads
// CHECK-NOT: __lo_spawn
// CHECK: child<<<1, 32>>>(d);

// A parent thread that waits, after the launch, for memory its child writes
// (CDP2 has no device-side wait, so it polls) needs the child's result
// before it ends: T3, which runs the child only when the parent block is
// done, refuses it (the wait would never end); T4, which runs the child
// before the parent thread goes on, takes it.
// RUN: %launchopt --remove-launches=T3 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %launchopt --remove-launches=T4 %s -o %t4.cu 2> %t4.remarks
// RUN: %FileCheck %s --check-prefix=T4 < %t4.remarks
// RUN: %nvcc-plain-compile %t4.cu
#include <cuda_runtime.h>

__global__ void produce(volatile int *flag, int *out) {
  out[threadIdx.x] = threadIdx.x;
  __threadfence();
  if (threadIdx.x == 0)
    *flag = 1;
}

__global__ void parent(int *flags, int **outs, int *firsts) {
  volatile int *flag = &flags[threadIdx.x];
  produce<<<1, 32>>>(flag, outs[threadIdx.x]);
  while (*flag == 0) {
  }
  firsts[threadIdx.x] = outs[threadIdx.x][0];
}

// CHECK: :22:3: remark: not removed: the parent waits for the child's results before it ends (a loop at line 23 polls volatile memory); T3 runs the child only when the parent block is done
// T4: :22:3: remark: remove-launches applied to launch of 'produce' (function: __lo_inline_produce, version: T4 (CKi -> PTi))

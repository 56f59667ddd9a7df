// Two __global__ overloads of one name (one declared in a header): Clang 19
// rejects every candidate of their device-side launches; launchopt picks the
// overload by the number of arguments and recovers both launches, at the
// columns the user wrote. The transformed output keeps the user's spelling
// (no trace of the recovery) and compiles.
// RUN: %launchopt --list-launches %s -- -I%S/Inputs | %FileCheck %s --check-prefix=LIST
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks -- -I%S/Inputs
// RUN: %FileCheck %s --check-prefix=OUT < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile -I%S/Inputs %t.cu
#include "sweep-overload.cuh"

__global__ void sweep(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
  if (i == 0 && n > 64)
    sweep<<<(n / 2 + 31) / 32, 32>>>(d, n / 2);
}

__global__ void sweep(int *d, int n, int depth) {
  if (threadIdx.x == 0 && depth > 0)
    sweep<<<(n + 31) / 32, 32>>>(d, n, depth - 1);
}

// LIST-NOT: unresolved
// LIST: launch #1 at {{.*}}recovered-overloaded-launch.cu:18:5: device-side, 'sweep' launches 'sweep'
// LIST-NEXT: grid: (n / 2 + 31) / 32
// LIST: launch #2 at {{.*}}recovered-overloaded-launch.cu:23:5: device-side, 'sweep' launches 'sweep'
// LIST-NEXT: grid: (n + 31) / 32
// REMARK-NOT: cannot resolve
// REMARK: recovered-overloaded-launch.cu:18:5: remark: threshold applied to launch of 'sweep'
// REMARK: recovered-overloaded-launch.cu:23:5: remark: threshold applied to launch of 'sweep'
// OUT-NOT: launchopt:recovered
// OUT-NOT: __lo_ovl
// OUT: __global__ void sweep(int *d, int n) {
// OUT: sweep<<<
// OUT: __global__ void sweep(int *d, int n, int depth) {

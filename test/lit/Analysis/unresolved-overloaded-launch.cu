// Two __global__ overloads of one name (one declared in a header): Clang 19
// cannot resolve their device-side launches, and the remark says so rather
// than naming a template kernel. The output is the input and compiles.
// RUN: %launchopt --list-launches %s -- -I%S/Inputs | %FileCheck %s --check-prefix=LIST
// RUN: %launchopt --threshold --aggregate=block %s -o %t.cu 2> %t.remarks -- -I%S/Inputs
// RUN: diff %s %t.cu
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

// LIST: unresolved launch at {{.*}}unresolved-overloaded-launch.cu:16:5: sweep<<<(n / 2 + 31) / 32, 32>>>(d, n / 2)
// LIST-NEXT: Clang 19 cannot resolve this device-side launch of 'sweep', a name 2 overloaded kernels share
// REMARK: unresolved-overloaded-launch.cu:16:5: remark: not transformed: Clang 19 cannot resolve this device-side launch of 'sweep', a name 2 overloaded kernels share; left untouched (kernels with distinct names can be transformed)
// REMARK: unresolved-overloaded-launch.cu:21:5: remark: not transformed: Clang 19 cannot resolve this device-side launch of 'sweep', a name 2 overloaded kernels share
// REMARK-NOT: template kernel

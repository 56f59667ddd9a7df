// Two __global__ overloads that take as many arguments, and a launch whose
// argument types match neither exactly: launchopt does not guess which one
// C++ would pick, leaves the launch as written and says why.
// RUN: %launchopt --list-launches %s | %FileCheck %s --check-prefix=LIST
// RUN: %launchopt --threshold --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
__global__ void fill(int *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = n;
}

__global__ void fill(int *d, long n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = 2;
}

__global__ void parent(int *d, short n) {
  if (threadIdx.x == 0)
    fill<<<1, 32>>>(d, n);
}

// LIST: unresolved launch at {{.*}}unresolved-overloaded-launch.cu:21:5: fill<<<1, 32>>>(d, n)
// LIST-NEXT: Clang 19 cannot resolve this device-side launch of 'fill', a name 2 overloaded kernels share
// REMARK: unresolved-overloaded-launch.cu:21:5: remark: not transformed: Clang 19 cannot resolve this device-side launch of 'fill', a name 2 overloaded kernels share
// REMARK-NOT: template kernel

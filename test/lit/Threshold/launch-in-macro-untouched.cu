// A launch whose kernel a macro's body names cannot be rewritten (the name
// could mean another kernel at the invocation): it is left as written and
// the remark says why. A macro given the kernel is: launch-macro-argument.cu.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

#define LAUNCH_CHILD(d, n) child<<<((n) + 31) / 32, 32>>>(d, n)

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  LAUNCH_CHILD(d, n);
}

// CHECK: launch-in-macro-untouched.cu:[[@LINE-3]]:3: remark: not thresholded: the launched kernel's name comes from a macro

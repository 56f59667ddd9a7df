// A child template whose parameters have defaults is left untouched: the
// generated templates could not be called with the defaults left out.
// RUN: %launchopt --threshold --coarsen --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: diff %s %t.cu
// RUN: %FileCheck %s < %t.remarks

template <typename T, int B = 64> __global__ void tchild(T *d, int n);

template <typename T> __global__ void parent(T *d, int n) {
  tchild<T><<<(n + 63) / 64, 64>>>(d, n);
}

template <typename T, int B> __global__ void tchild(T *d, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n)
    d[i] = i;
}

template __global__ void parent<float>(float *, int);

// CHECK: remark: not thresholded: the kernel's template parameters have default arguments or constraints
// CHECK: remark: not coarsened: the kernel's template parameters have default arguments or constraints
// CHECK: remark: not aggregated: the kernel's template parameters have default arguments or constraints

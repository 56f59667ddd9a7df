// A child template whose defaults are given by a declaration before its
// definition: the copies written from the definition repeat its parameters
// as written there, and the launch in a template parent names the default
// (it depends on nothing). Each pass's output compiles.
// RUN: %launchopt --threshold --coarsen --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s --check-prefix=CODE
// RUN: %nvcc-compile %t.cu

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

// CHECK: remark: threshold applied to launch of 'tchild'
// CHECK: remark: coarsen applied to launch of 'tchild'
// CHECK: remark: aggregate applied to launch of '__lo_coarse_tchild'
// CODE: __lo_serial_tchild<T, (int)64>(

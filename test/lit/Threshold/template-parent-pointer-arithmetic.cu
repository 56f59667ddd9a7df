// In a template parent, a launch that leaves the child's template argument
// to deduction from pointer arithmetic on a template operand (`acc + r`,
// `&out[r]`), whose type Clang leaves unnamed until instantiation, deduces
// the pointer's type; the serial copy is called with it. With an operator+
// of a header in sight (cooperative groups), Clang writes the sum as an
// overloaded operator call; it deduces the same.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cooperative_groups.h>

template <typename T = float>
__global__ void add_row(const int *cols, int b, int e, T *acc) {
  int i = b + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < e)
    atomicAdd(acc, T(cols[i] & 7));
}

template <typename T>
__global__ void rows(const int *offsets, const int *cols, T *acc, T *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n)
    return;
  int b = offsets[r], e = offsets[r + 1];
  add_row<<<(e - b + 63) / 64, 64>>>(cols, b, e, acc + r);
  add_row<<<(e - b + 63) / 64, 64>>>(cols, b, e, &out[r]);
}

void run(const int *offsets, const int *cols, float *acc, float *out, int n) {
  rows<<<(n + 127) / 128, 128>>>(offsets, cols, acc, out, n);
}

// CHECK: __lo_serial_add_row<T>({{.*}}acc + r,
// CHECK: __lo_serial_add_row<T>({{.*}}&out[r],
// REMARK: template-parent-pointer-arithmetic.cu:26:3: remark: threshold applied to launch of 'add_row'
// REMARK: template-parent-pointer-arithmetic.cu:27:3: remark: threshold applied to launch of 'add_row'

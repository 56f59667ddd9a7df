// A child defined after its parent in another namespace: its argument structs
// and launcher declaration go in its namespace, reopened before the parent,
// so they name its parameter types as the child does; the parent names them
// qualified.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

namespace kernels {
struct Cell {
  float v;
};
__global__ void child(Cell *d, int n);
}

// CHECK-LABEL: __global__ void child(Cell *d, int n);
// CHECK: namespace kernels {
// CHECK-NEXT: static __device__ void __lo_launch_child(
// CHECK: namespace kernels {
// CHECK: struct __lo_uargs_child {
// CHECK-NEXT: Cell *d;
// CHECK: __global__ void parent(
// CHECK: ::kernels::__lo_launch_child(
__global__ void parent(kernels::Cell *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  kernels::child<<<(n + 63) / 64, 64>>>(d, n);
}

namespace kernels {
__global__ void child(Cell *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i].v += 1.0f;
}
} // namespace kernels

// REMARK: child-after-parent-namespace.cu:27:3: remark: aggregate applied to launch of 'child'

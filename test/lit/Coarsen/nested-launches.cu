// A child that launches a grandchild: both launches are coarsened, and the
// coarsened copy of the child launches the coarsened grandchild too.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void grandchild(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = i;
}

__global__ void child(int *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  grandchild<<<(n + 63) / 64, 64>>>(d, n);
}

// CHECK-LABEL: __global__ void __lo_coarse_grandchild(int *d, int n, const dim3 __lo_originalGrid)
// CHECK-LABEL: __global__ void child(int *d, const int *sizes) {
// CHECK: __lo_coarse_grandchild<<<__lo_coarse1, 64>>>(d, n, __lo_cgrid1);
// CHECK-LABEL: __global__ void __lo_coarse_child(int *d, const int *sizes, const dim3 __lo_originalGrid)
// CHECK: { // one original block
// CHECK: int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
// CHECK: __lo_coarse_grandchild<<<__lo_coarse1, 64>>>(d, n, __lo_cgrid1);

__global__ void parent(int *d, const int *sizes, int m) {
  child<<<m, 32>>>(d, sizes);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: __lo_coarse_child<<<__lo_coarse2, 32>>>(d, sizes, __lo_cgrid2);

// REMARK: nested-launches.cu:16:3: remark: coarsen applied to launch of 'grandchild'
// REMARK: nested-launches.cu:28:3: remark: coarsen applied to launch of 'child'

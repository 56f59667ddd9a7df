// The same child launched twice: its serial copy is emitted once and both
// launches call it.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(d, n);
  child<<<(2 * n + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(d, 2 * n);
}

// CHECK-COUNT-1: static __device__ void __lo_serial_child(
// CHECK-NOT: static __device__ void __lo_serial_child(
// CHECK: const auto __lo_n1_x = (n);
// CHECK: __lo_serial_child(d, n, __lo_grid1, __lo_block1);
// CHECK: const auto __lo_n2_x = (2 * n);
// CHECK: __lo_serial_child(d, 2 * n, __lo_grid2, __lo_block2);
// CHECK-NOT: __lo_serial_child

// REMARK: same-child-twice.cu:16:3: remark: threshold applied to launch of 'child'
// REMARK: same-child-twice.cu:17:3: remark: threshold applied to launch of 'child'

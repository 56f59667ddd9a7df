// Launches of different children from one parent, into fire-and-forget
// streams: each gets its own serial copy and numbered temporaries.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void other(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 0;
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(d, n);
  other<<<(n + 63) / 64, 64, 0, cudaStreamFireAndForget>>>(d, n);
}

// CHECK: static __device__ void __lo_serial_child(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK: static __device__ void __lo_serial_other(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-LABEL: __global__ void parent(
// CHECK: const dim3 __lo_grid1 = (__lo_n1_x + 31) / 32;
// CHECK: child<<<__lo_grid1, __lo_block1, 0, cudaStreamFireAndForget>>>(d, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(d, n, __lo_grid1, __lo_block1);
// CHECK: const dim3 __lo_grid2 = (__lo_n2_x + 63) / 64;
// CHECK: other<<<__lo_grid2, __lo_block2, 0, cudaStreamFireAndForget>>>(d, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_other(d, n, __lo_grid2, __lo_block2);

// REMARK: several-launches-different-children.cu:22:3: remark: threshold applied to launch of 'child'
// REMARK: several-launches-different-children.cu:23:3: remark: threshold applied to launch of 'other'

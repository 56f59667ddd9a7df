// The grid and block as dim3 variables: each component's N is found through
// the dim3 initialiser and an int variable.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1.0f;
}

__global__ void parent(float *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  int blocks = (n + 63) / 64;
  dim3 grid(blocks);
  dim3 block(64);
  child<<<grid, block>>>(data, n);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: dim3 block(64);
// CHECK-NEXT: { // launchopt: thresholded launch of 'child'
// CHECK-NEXT: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = grid;
// CHECK-NEXT: const dim3 __lo_block1 = block;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(data, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(data, n, __lo_grid1, __lo_block1);

// REMARK: split-dim3-variables.cu:19:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: n ((N + c)/b)

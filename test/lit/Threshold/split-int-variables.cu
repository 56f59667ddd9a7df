// The grid expression split across int variables: N is found through them and
// re-evaluated at the launch, since it has no side effects and is not written.
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
  int padded = n + 127;
  int blocks = padded / 128;
  child<<<blocks, 128>>>(data, n);
}

// Once a variable that N reads is written after the split, N cannot stand for
// the thread count at the launch any more.
__global__ void written_later(float *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  int blocks = (n + 127) / 128;
  n = n / 2;
  child<<<blocks, 128>>>(data, n);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: int blocks = padded / 128;
// CHECK-NEXT: { // launchopt: thresholded launch of 'child'
// CHECK-NEXT: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = blocks;
// CHECK-NEXT: const dim3 __lo_block1 = 128;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) *

// CHECK-LABEL: __global__ void written_later(
// CHECK: const dim3 __lo_grid2 = blocks;
// CHECK-NEXT: const dim3 __lo_block2 = 128;
// CHECK-NEXT: const long long __lo_threads2 = (long long)__lo_grid2.x * __lo_block2.x *

// REMARK: split-int-variables.cu:18:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: n ((N + c)/b)
// REMARK: split-int-variables.cu:27:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: grid x block (no ceiling division found)

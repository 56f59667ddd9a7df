// With --assume-independent-children the launch in a loop is thresholded,
// with a warning that says what was assumed.
// RUN: %launchopt --threshold --assume-independent-children %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void parent(int *d, const int *sizes, int k) {
  for (int j = 0; j < k; ++j)
    child<<<(sizes[j] + 31) / 32, 32>>>(d + j, sizes[j]);
}

// CHECK-LABEL: __global__ void parent(
// CHECK-NEXT: for (int j = 0; j < k; ++j)
// CHECK-NEXT: { // launchopt: thresholded launch of 'child'
// CHECK-NEXT: const auto __lo_n1_x = (sizes[j]);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x + 31) / 32;
// CHECK: child<<<__lo_grid1, __lo_block1>>>(d + j, sizes[j]);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(d + j, sizes[j], __lo_grid1, __lo_block1);
// CHECK-NEXT: }
// CHECK-NEXT: }

// REMARK: launch-in-loop-assume-independent.cu:16:5: remark: threshold applied to launch of 'child'
// REMARK-NEXT: launch-in-loop-assume-independent.cu:16:5: warning: serialized although earlier launches from this thread go into the same stream (--assume-independent-children)

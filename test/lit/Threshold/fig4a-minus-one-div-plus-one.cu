// Fig. 4 (a): the thread count is N of (N - 1) / b + 1; N is bound once and
// the grid is computed from the bound value.
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
  child<<<(sizes[threadIdx.x] - 1) / 256 + 1, 256>>>(data, sizes[threadIdx.x]);
}

// CHECK-LABEL: __global__ void parent(
// CHECK-NEXT: { // launchopt: thresholded launch of 'child'
// CHECK-NEXT: const auto __lo_n1_x = (sizes[threadIdx.x]);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x - 1) / 256 + 1;
// CHECK-NEXT: const dim3 __lo_block1 = 256;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(data, sizes[threadIdx.x]);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(data, sizes[threadIdx.x], __lo_grid1, __lo_block1);
// CHECK-NEXT: }
// CHECK-NEXT: }

// REMARK: fig4a-minus-one-div-plus-one.cu:15:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: sizes[threadIdx.x] ((N + c)/b + c)

// Fig. 4 (c): N/b + (N%b == 0)?0:1. As the paper writes it, the conditional
// binds loosest; the division inside still names N. Only the first N is bound:
// the second stays where it was, so N is evaluated as often as before.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1.0f;
}

__global__ void as_written(float *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<n / 128 + (n % 128 == 0) ? 0 : 1, 128, 0, cudaStreamFireAndForget>>>(data, n);
}

__global__ void parenthesized(float *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<n / 128 + ((n % 128 == 0) ? 0 : 1), 128, 0, cudaStreamFireAndForget>>>(data, n);
}

// CHECK-LABEL: __global__ void as_written(
// CHECK: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = __lo_n1_x / 128 + (n % 128 == 0) ? 0 : 1;
// CHECK-NEXT: const dim3 __lo_block1 = 128;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) *
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1, 0, cudaStreamFireAndForget>>>(data, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(data, n, __lo_grid1, __lo_block1);

// CHECK-LABEL: __global__ void parenthesized(
// CHECK: const auto __lo_n2_x = (n);
// CHECK-NEXT: const dim3 __lo_grid2 = __lo_n2_x / 128 + ((n % 128 == 0) ? 0 : 1);

// REMARK: fig4c-div-plus-remainder-test.cu:17:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: n ((N/b + c) ? c : c)
// REMARK: fig4c-div-plus-remainder-test.cu:22:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: n (N/b + c)

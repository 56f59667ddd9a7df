// Fig. 4 (d): ceil((float)N / b); the cast is not part of N.
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
  child<<<ceil((float)n / 64), 64>>>(data, n);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = ceil((float)__lo_n1_x / 64);
// CHECK-NEXT: const dim3 __lo_block1 = 64;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) *
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(data, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(data, n, __lo_grid1, __lo_block1);

// REMARK: fig4d-ceil-float-numerator.cu:15:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: n (ceil(N/b))

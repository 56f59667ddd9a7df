// Fig. 4 (e): ceil(N / (float)b), here with ceilf and a divisor variable.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1.0f;
}

__global__ void parent(float *data, const int *sizes, int b) {
  int n = sizes[threadIdx.x];
  child<<<ceilf(n / (float)b), b>>>(data, n);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = ceilf(__lo_n1_x / (float)b);
// CHECK-NEXT: const dim3 __lo_block1 = b;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) *
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(data, n);

// REMARK: fig4e-ceil-float-divisor.cu:15:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: n (ceil(N/b))

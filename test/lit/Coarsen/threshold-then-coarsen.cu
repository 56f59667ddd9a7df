// T -> C: the launch that thresholding keeps inside its `if` is coarsened; the
// serial copy the `else` calls is untouched.
// RUN: %launchopt --threshold --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: { // launchopt: coarsened launch of 'child'
// CHECK-NEXT: const dim3 __lo_cgrid1 = __lo_grid1;
// CHECK-NEXT: const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
// CHECK-NEXT: __lo_coarse_child<<<__lo_coarse1, __lo_block1>>>(d, n, __lo_cgrid1);
// CHECK-NEXT: }
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(d, n, __lo_grid1, __lo_block1);
// CHECK-NOT: __lo_coarse

// REMARK: threshold-then-coarsen.cu:16:3: remark: threshold applied to launch of 'child'
// REMARK: threshold-then-coarsen.cu:{{[0-9]+}}:{{[0-9]+}}: remark: coarsen applied to launch of 'child'

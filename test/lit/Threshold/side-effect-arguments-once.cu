// Arguments with side effects are written once in each branch, so exactly one
// evaluation happens whichever way the threshold goes.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

__global__ void parent(int *d, const int *sizes, int counter) {
  int n = sizes[threadIdx.x];
  child<<<(n + 255) / 256, 256>>>(d + counter++, n);
  d[0] = counter;
}

// CHECK-LABEL: __global__ void parent(
// CHECK: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x + 255) / 256;
// CHECK-NEXT: const dim3 __lo_block1 = 256;
// CHECK-NEXT: const long long __lo_threads1 =
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(d + counter++, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(d + counter++, n, __lo_grid1, __lo_block1);
// CHECK-NEXT: }
// CHECK-NEXT: d[0] = counter;
// CHECK-NOT: counter++

// REMARK: side-effect-arguments-once.cu:16:3: remark: threshold applied to launch of 'child'

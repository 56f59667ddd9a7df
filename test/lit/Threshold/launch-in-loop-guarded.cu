// A launch into the default stream in a loop is thresholded under an order
// guard: the parent thread serializes its children only until one of them
// is launched; from then on it launches them, and the stream keeps them in
// order. The flag is declared once per parent thread, at the body's start.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
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
// CHECK-NEXT: bool __lo_launchedInOrder = false; // launchopt: this thread launched into an ordered stream
// CHECK-NEXT: for (int j = 0; j < k; ++j)
// CHECK-NEXT: { // launchopt: thresholded launch of 'child'
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1 || __lo_launchedInOrder) {
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(d + j, sizes[j]);
// CHECK-NEXT: __lo_launchedInOrder = true;
// CHECK-NEXT: } else
// CHECK-NEXT: __lo_serial_child(d + j, sizes[j], __lo_grid1, __lo_block1);
// CHECK-NEXT: }
// CHECK-NEXT: }

// REMARK: launch-in-loop-guarded.cu:18:5: remark: threshold applied to launch of 'child' (order-guard: serialized only while this thread has launched nothing into the same stream (not proved independent: 'd + j' (written by the launch at line 18) and 'd + j' (written by this one): in a loop, where the ranges of different iterations are not compared)

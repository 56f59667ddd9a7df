// The decision compares the recovered count n with the threshold, and the
// serial copy runs grid x block threads. For an unsigned n of 0,
// (n - 1) / 32 + 1 wraps to 2^27 blocks: the serial copy must not run them.
// The launch is serial only where the grid is the ceiling of n (fewer than
// n + block threads); otherwise it is launched as written. A child that
// launches nothing is in no launch cycle and gets no depth guard.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void child(unsigned *d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = i;
}

__global__ void parent(unsigned *d, const unsigned *sizes) {
  unsigned n = sizes[threadIdx.x];
  child<<<(n - 1) / 32 + 1, 32>>>(d, n);
}

// CHECK-NOT: LAUNCHOPT_SERIAL_DEPTH
// CHECK-NOT: cudaLimitStackSize
// CHECK: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x - 1) / 32 + 1;
// CHECK-NEXT: const dim3 __lo_block1 = 32;
// CHECK: const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
// CHECK-NEXT: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(d, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(d, n, __lo_grid1, __lo_block1);
// CHECK-NOT: __lo_serialDepth

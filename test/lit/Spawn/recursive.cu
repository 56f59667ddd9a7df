// A child that launches itself: its spawned kernel is declared before the
// per-thread function that launches it, the serial recursion is bounded by
// LAUNCHOPT_SERIAL_DEPTH, and a launch at the bound may not be serialized.
// RUN: %launchopt --spawn %s -o %t.cu --quiet
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --threshold --spawn %s -o %t.ts.cu --quiet
// RUN: %nvcc-compile %t.ts.cu

__global__ void halve(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] /= 2;
  if (i == 0 && n > 1)
    halve<<<(n / 2 + 31) / 32, 32>>>(d, n / 2);
}

// CHECK: static constexpr unsigned __lo_serialDepth = 0;
// CHECK: static __device__ void __lo_spawn_serial_halve(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim, const unsigned __lo_serialDepth);
// CHECK-NEXT: static __global__ void __lo_spawned_halve(int *d, int n, const unsigned __lo_ticket);
// CHECK: !__lo_sfits1 || __lo_serialDepth >= LAUNCHOPT_SERIAL_DEPTH);
// CHECK: __lo_spawn_serial_halve(d, n / 2, __lo_sgrid1, __lo_sblock1, __lo_serialDepth + 1);
// CHECK: __lo_spawn_thread_halve(d, n, blockIdx, threadIdx, blockDim, gridDim, __lo_serialDepth);

// A kernel that launches itself: the serial copy is defined after the kernel,
// so a prototype goes before it. The serial copy would call itself without
// bound: it takes its depth, and a launch at LAUNCHOPT_SERIAL_DEPTH nested
// serial copies is launched rather than run serially. nvcc cannot size the
// stack of a recursion, so the host raises the device's stack before main.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void halve(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] /= 2;
  if (i == 0 && n > 1)
    halve<<<(n / 2 + 31) / 32, 32>>>(d, n / 2);
}

// CHECK: #define LAUNCHOPT_SERIAL_DEPTH 4
// CHECK: static constexpr unsigned __lo_serialDepth = 0;
// CHECK: #define LAUNCHOPT_SERIAL_STACK (1024 + 768 * LAUNCHOPT_SERIAL_DEPTH)
// CHECK: #ifndef __CUDA_ARCH__
// CHECK: cudaDeviceGetLimit(&Bytes, cudaLimitStackSize) == cudaSuccess &&
// CHECK: cudaDeviceSetLimit(cudaLimitStackSize, LAUNCHOPT_SERIAL_STACK);
// CHECK: } __lo_serialStackLimit;
// CHECK: static __device__ void __lo_serial_halve(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim, const unsigned __lo_serialDepth);
// CHECK-EMPTY:
// CHECK-NEXT: __global__ void halve(int *d, int n) {
// CHECK: const auto __lo_n1_x = (n / 2);
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1 ||
// CHECK-NEXT: __lo_serialDepth >= LAUNCHOPT_SERIAL_DEPTH)
// CHECK-NEXT: halve<<<__lo_grid1, __lo_block1>>>(d, n / 2);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_halve(d, n / 2, __lo_grid1, __lo_block1, __lo_serialDepth + 1);
// CHECK: static __device__ void __lo_thread_halve(int *d, int n, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim, const unsigned __lo_serialDepth)
// CHECK: __lo_serial_halve(d, n / 2, __lo_grid1, __lo_block1, __lo_serialDepth + 1);
// CHECK: static __device__ void __lo_serial_halve(int *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim, const unsigned __lo_serialDepth)
// CHECK-NEXT: {
// CHECK: make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim, __lo_serialDepth);

// REMARK: recursive-kernel.cu:16:5: remark: threshold applied to launch of 'halve'

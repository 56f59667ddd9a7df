// Fig. 4 (b): the thread count is N of (N + b - 1) / b, bound once.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

// CHECK: #define LAUNCHOPT_THRESHOLD 256
__global__ void child(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= 2.0f;
}
// CHECK: static __device__ void __lo_thread_child(float *data, int n, const uint3 __lo_blockIdx
// CHECK: const uint3 blockIdx = __lo_blockIdx;
// CHECK: static __device__ void __lo_serial_child(float *data, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)

__global__ void parent(float *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 255) / 256, 256>>>(data, n);
}
// CHECK-LABEL: __global__ void parent(
// CHECK: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x + 255) / 256;
// CHECK-NEXT: const dim3 __lo_block1 = 256;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) *
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: child<<<__lo_grid1, __lo_block1>>>(data, n);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_child(data, n, __lo_grid1, __lo_block1);

// REMARK: ceil-div-plus-b-minus-one.cu:19:3: remark: threshold applied to launch of 'child'
// REMARK-SAME: threads: x: n ((N + c)/b)

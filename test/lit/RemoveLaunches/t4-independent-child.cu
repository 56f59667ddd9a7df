// T4 (CKi -> PTi): the parent thread runs its child's grid through a serial
// copy; with no device-side launch left the output builds without -rdc, and
// the device-side cudaGetLastError after the launch becomes cudaSuccess.
// RUN: %launchopt --remove-launches=T4 %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-plain-compile %t.cu
#include <cuda_runtime.h>

__global__ void scale(float *data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

// CHECK-LABEL: static __device__ void __lo_ithread_scale(float *data, int n, float factor, const uint3 __lo_blockIdx
// CHECK: const uint3 threadIdx = __lo_threadIdx;
// CHECK: static __device__ void __lo_inline_scale(float *data, int n, float factor, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK: __lo_ithread_scale(data, n, factor, make_uint3(__lo_bx, __lo_by, __lo_bz),

__global__ void parent(float **rows, const int *lengths, int *failed) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int n = lengths[r];
  scale<<<(n + 31) / 32, 32>>>(rows[r], n, 2.0f);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(failed, 1);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: { // launchopt: launch of 'scale' removed (T4): this thread runs the child grid
// CHECK-NEXT: const auto __lo_n1_x = (n);
// CHECK-NEXT: const dim3 __lo_grid1 = (__lo_n1_x + 31) / 32;
// CHECK-NEXT: const dim3 __lo_block1 = 32;
// CHECK-NEXT: if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
// CHECK: } else {
// CHECK-NEXT: __lo_inline_scale(rows[r], n, 2.0f, __lo_grid1, __lo_block1);
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: if (cudaSuccess != cudaSuccess)

void run(float **rows, const int *lengths, int *failed, int count) {
  parent<<<count / 64, 64>>>(rows, lengths, failed);
}

// REMARK: t4-independent-child.cu:24:3: remark: remove-launches applied to launch of 'scale' (function: __lo_inline_scale, launched-if-grid-exceeds: x: n, version: T4 (CKi -> PTi))
// REMARK: t4-independent-child.cu:42:3: remark: not removed: host-side launch
// REMARK: t4-independent-child.cu:24:3: remark: remove-launches: every device-side launch of this file is removed: the output builds as plain CUDA, without -rdc=true and -lcudadevrt

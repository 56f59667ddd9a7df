// A launch inside a branch: only the threads that launch reserve a record;
// the closing barrier and the launch of the scope are in the kernel's
// wrapper, after the body, where every thread arrives (also after the early
// return).
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 0.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  if (n > 1000) {
    child<<<(n + 255) / 256, 256>>>(d, n);
  }
  if (n == 0)
    return;
  d[n] = 1.0f;
}

// CHECK-LABEL: static __device__ void __lo_part_parent(float *d, const int *sizes,
// CHECK: if (n > 1000) {
// CHECK-NEXT: { // launchopt: aggregated launch of 'child'
// CHECK-NEXT: const dim3 __lo_agrid1 = (n + 255) / 256;
// CHECK-NEXT: const dim3 __lo_ablock1 = 256;
// CHECK-NEXT: void *__lo_uniform1;
// CHECK-NEXT: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_child), &__lo_uniform1);
// CHECK: if (n == 0)
// CHECK-NEXT: return;
// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NOT: reserveRecord
// CHECK: __syncthreads();
// CHECK-NEXT: __lo_part_parent(d, sizes, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: if (__lo_thread == 0)
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, true);
// CHECK-NEXT: }

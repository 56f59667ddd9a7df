// With --assume-independent-children a launch in a loop is aggregated: each
// iteration reserves its own record in the block's scope.
// RUN: %launchopt --aggregate=block --assume-independent-children %s -o %t.cu 2> %t.remarks
// RUN: grep -v "^// [A-Z0-9-]*:" %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
__global__ void child(float *d, int k) { d[k * blockDim.x + threadIdx.x] = k; }

__global__ void parent(float *d, int m) {
  for (int k = 0; k < m; ++k)
    child<<<1, 32>>>(d, k);
}

// CHECK-LABEL: static __device__ void __lo_part_parent(float *d, int m,
// CHECK: for (int k = 0; k < m; ++k)
// CHECK-NEXT: { // launchopt: aggregated launch of 'child'
// CHECK: ::new (__lo_record1) __lo_args_child(k);
// CHECK-NEXT: if (__lo_uniform1)
// CHECK-NEXT: ::new (__lo_uniform1) __lo_uargs_child(d);
// CHECK-LABEL: __global__ void parent(float *d, int m) {
// CHECK: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, true);

// REMARK: loop-assume-independent.cu:11:5: remark: aggregate applied to launch of 'child'

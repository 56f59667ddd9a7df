// --include-runtime keeps the include of the runtime header instead of
// embedding it.
// RUN: %launchopt --aggregate=block --include-runtime %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile -I %S/../../../runtime/include %t.cu

__global__ void child(float *d) { d[threadIdx.x] = 1.0f; }

__global__ void parent(float *d) {
  child<<<1, 32>>>(d + threadIdx.x * 32);
}

// CHECK: #include <launchopt/aggregation.cuh>
// CHECK-NOT: namespace launchopt {
// CHECK: __global__ void __lo_agg_child(

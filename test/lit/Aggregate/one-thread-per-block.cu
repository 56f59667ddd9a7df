// How many records a block scope needs: one per thread, or one when a single
// thread of each parent block reaches the launch. `threadIdx.x == 0` is enough
// when every launch of the parent passes a one-dimensional block; with a dim3
// block the guard must pin y and z too; a loop around the launch (or no guard)
// needs a record per thread.
// RUN: %launchopt --aggregate=block --assume-independent-children %s -o %t.cu 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void child(int *out) { out[threadIdx.x] = 1; }

__global__ void flat1d(int *out) {
  if (!threadIdx.x)
    child<<<1, 32>>>(out + blockIdx.x * 32);
}

__global__ void square(int *out) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(out + blockIdx.x * 32);
}

__global__ void squareAllAxes(int *out) {
  if (threadIdx.x == 0 && 0 == threadIdx.y && threadIdx.z == 0)
    child<<<1, 32>>>(out + blockIdx.x * 32);
}

__global__ void looped(int *out, int n) {
  if (threadIdx.x == 0)
    for (int i = 0; i < n; ++i)
      child<<<1, 32>>>(out + i * 32);
}

void run(int *out, int n) {
  flat1d<<<n, 128>>>(out);
  square<<<n, dim3(8, 8)>>>(out);
  squareAllAxes<<<n, dim3(8, 8)>>>(out);
  looped<<<1, 64>>>(out, n);
}

// CHECK-LABEL: __global__ void flat1d(int *out) {
// CHECK: launchopt::openScope(&__lo_agg1_block, 1u, 0);
// CHECK-LABEL: __global__ void square(int *out) {
// CHECK: launchopt::openScope(&__lo_agg2_block, __lo_blockThreads, 0);
// CHECK-LABEL: __global__ void squareAllAxes(int *out) {
// CHECK: launchopt::openScope(&__lo_agg3_block, 1u, 0);
// CHECK-LABEL: __global__ void looped(int *out, int n) {
// CHECK: launchopt::openScope(&__lo_agg4_block, __lo_blockThreads,

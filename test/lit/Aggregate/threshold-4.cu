// --aggregate-threshold sets the default of LAUNCHOPT_AGG_THRESHOLD: a warp
// with fewer launches launches them one by one; -D overrides it.
// RUN: %launchopt --aggregate=warp --aggregate-threshold=4 %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_AGG_THRESHOLD=1 %t.cu

__global__ void child(float *d) { d[threadIdx.x] = 1.0f; }

__global__ void parent(float *d) {
  child<<<1, 32>>>(d + threadIdx.x * 32);
}

// CHECK: #ifndef LAUNCHOPT_AGG_THRESHOLD
// CHECK-NEXT: #define LAUNCHOPT_AGG_THRESHOLD 4
// CHECK-NEXT: #endif
// CHECK: if (__lo_allowDirect && __lo_s.count < LAUNCHOPT_AGG_THRESHOLD) {
// CHECK: if (__lo_thread % 32 == 0)
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, true);

// --threshold-value sets the default of the LAUNCHOPT_THRESHOLD macro, which
// a build can still override.
// RUN: %launchopt --threshold --threshold-value=64 %s -o %t.cu 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 0.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: Override with -DLAUNCHOPT_THRESHOLD=<threads>.
// CHECK-NEXT: #ifndef LAUNCHOPT_THRESHOLD
// CHECK-NEXT: #define LAUNCHOPT_THRESHOLD 64
// CHECK-NEXT: #endif
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)

// The output names its threshold macro and a build may set it with
// -DLAUNCHOPT_THRESHOLD: the default definition is guarded.
// RUN: %launchopt --threshold %s -o %t.cu 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile -DLAUNCHOPT_THRESHOLD=1000 %t.cu
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

// CHECK: // launchopt: a device-side launch runs when its child has at least
// CHECK-NEXT: // LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// CHECK-NEXT: // (the report's serial-pooling says where the lanes of a warp share their
// CHECK-NEXT: // children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
// CHECK-NEXT: #ifndef LAUNCHOPT_THRESHOLD
// CHECK-NEXT: #define LAUNCHOPT_THRESHOLD {{[0-9]+}}
// CHECK-NEXT: #endif

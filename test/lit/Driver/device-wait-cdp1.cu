// A CUDA 11 (CDP1) parent that waits for its child with a device-side
// cudaDeviceSynchronize(), which CUDA 12 removed: the parse fails as nvcc's
// would, and a note at the call says why and what to do instead. Nothing is
// written.
// RUN: rm -f %t.out
// RUN: sh -c '%launchopt --auto %s -o %t.out 2> %t.err; test $? -eq 1'
// RUN: %FileCheck %s < %t.err
// RUN: not test -e %t.out

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

__global__ void parent(int *d, const int *sizes, int *sums) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d + 4096 * threadIdx.x, n);
  cudaDeviceSynchronize();
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += d[4096 * threadIdx.x + i];
  sums[threadIdx.x] = sum;
}

// CHECK: device-wait-cdp1.cu:19:3: error: no matching function for call to 'cudaDeviceSynchronize'
// CHECK: device-wait-cdp1.cu:19:3: note: device code cannot call cudaDeviceSynchronize() since CUDA 12: dynamic parallelism on sm_90 (CDP2) has no device-side wait for child grids
// CHECK-SAME: cudaStreamTailLaunch
// CHECK-NEXT: launchopt: error: '{{.*}}device-wait-cdp1.cu' could not be parsed; nothing was written

// A __host__ __device__ function that waits with cudaDeviceSynchronize():
// the host-side parse accepts it, nvcc rejects it for sm_90 once a kernel
// calls the function. The output is written, and a warning at the call says
// why nvcc will not build it, once although --auto parses the file many
// times.
// RUN: %launchopt --auto %s -o %t.out 2> %t.err
// RUN: %FileCheck %s < %t.err
// RUN: test -e %t.out

__global__ void child(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

__host__ __device__ void settle() { cudaDeviceSynchronize(); }

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d + 4096 * threadIdx.x, n);
  settle();
}

// CHECK: device-wait-host-device.cu:16:37: warning: device code cannot call cudaDeviceSynchronize() since CUDA 12
// CHECK-SAME: (this function calls it on the device if a kernel calls the function)
// CHECK-NOT: warning: device code cannot call

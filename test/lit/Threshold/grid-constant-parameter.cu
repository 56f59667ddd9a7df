// A child with a __grid_constant__ parameter: the annotation is only allowed
// on a kernel's parameters, so the copies that are device functions (serial,
// thread-run, aggregation's part function and argument structs) declare the
// parameter without it. Every output compiles.
// RUN: %launchopt --threshold %s -o %t.cu 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --remove-launches=T4 %s -o %t.r.cu 2> /dev/null
// RUN: %nvcc-compile %t.r.cu
// RUN: %launchopt --threshold --spawn --coarsen --aggregate=block %s -o %t.a.cu 2> /dev/null
// RUN: %nvcc-compile %t.a.cu

struct Params {
  int n;
  float k;
};

// CHECK: __global__ void scale(const __grid_constant__ Params p, float *d) {
// CHECK: static __device__ void __lo_serial_scale(const Params p, float *d,
__global__ void scale(const __grid_constant__ Params p, float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    d[i] *= p.k;
}

__global__ void parent(float *d, const int *len, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m)
    scale<<<(len[t] + 127) / 128, 128>>>(Params{len[t], 2.f}, d + t * 1024);
}

int main() {
  parent<<<1, 32>>>(nullptr, nullptr, 0);
  cudaDeviceSynchronize();
  return 0;
}

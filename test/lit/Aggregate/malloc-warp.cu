// Warp granularity: even a cudaMalloc that the whole block reaches is
// aggregated per warp.
// RUN: %launchopt --aggregate=warp %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 1.0f;
}

__global__ void parent(const int *sizes) {
  int n = sizes[threadIdx.x];
  float *d;
  if (cudaMalloc((void **)&d, n * sizeof(float)) == cudaSuccess)
    child<<<(n + 127) / 128, 128>>>(d, n);
}

// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: if (launchopt::warpCudaMalloc((void **)&d, n * sizeof(float)) == cudaSuccess)
// CHECK-LABEL: __global__ void parent(const int *sizes) {
// CHECK-NOT: cudaMalloc
// CHECK: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, true);

// REMARK: malloc-warp.cu:17:7: remark: aggregate: 'cudaMalloc' in 'parent': one allocation per warp, then split (launchopt::warpCudaMalloc)

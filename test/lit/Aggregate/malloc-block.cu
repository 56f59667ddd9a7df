// Block granularity: a cudaMalloc that every thread of the parent block
// reaches allocates once per block (block scan), one after an early return
// once per warp; the pieces are freed through launchopt::groupFree.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 1.0f;
}

__global__ void parent(const int *sizes, float **out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = sizes[i];
  float *d = nullptr;
  cudaError_t status = cudaMalloc((void **)&d, n * sizeof(float));
  if (i >= count)
    return;
  float *e = (float *)malloc(n * sizeof(float));
  out[i] = e;
  if (status == cudaSuccess)
    child<<<(n + 127) / 128, 128>>>(d, n);
}

__global__ void release(float **out) {
  free(out[threadIdx.x]);
}

// CHECK: // ---- launchopt runtime: launchopt/allocation.cuh ----
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: cudaError_t status = launchopt::blockCudaMalloc((void **)&d, n * sizeof(float));
// CHECK: float *e = (float *)launchopt::warpMalloc(n * sizeof(float));
// CHECK-LABEL: __global__ void release(float **out) {
// CHECK-NEXT: launchopt::groupFree(out[threadIdx.x]);

// REMARK: malloc-block.cu:19:24: remark: aggregate: 'cudaMalloc' in 'parent': one allocation per block, then split (launchopt::blockCudaMalloc)
// REMARK: malloc-block.cu:22:23: remark: aggregate: 'malloc' in 'parent': one allocation per warp, then split (launchopt::warpMalloc)
// REMARK: malloc-block.cu:29:3: remark: aggregate: 'free' in 'release' frees through launchopt::groupFree

// Frees anywhere in device code go through launchopt::groupFree, and
// allocations outside aggregated parents get a single-piece group header, so
// every device heap pointer can be freed either way. Host code is untouched.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d) { d[threadIdx.x] = 2.0f; }

__global__ void parent(float **buffers) {
  float *d;
  cudaMalloc((void **)&d, 32 * sizeof(float));
  buffers[blockIdx.x * blockDim.x + threadIdx.x] = d;
  child<<<1, 32>>>(d);
}

__device__ void dropBuffer(float *d) { cudaFree(d); }

__global__ void sumAndFree(float **buffers, float *sums) {
  float *d = buffers[threadIdx.x];
  sums[threadIdx.x] = d[0];
  dropBuffer(d);
}

__global__ void scratch(float *out) {
  float *t = (float *)malloc(4 * sizeof(float));
  t[0] = out[0];
  out[1] = t[0];
  free(t);
}

void host(float **buffers, float *sums) {
  float *h;
  cudaMalloc(&h, 16);
  parent<<<2, 64>>>(buffers);
  sumAndFree<<<2, 64>>>(buffers, sums);
  cudaFree(h);
}

// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: launchopt::blockCudaMalloc((void **)&d, 32 * sizeof(float));
// CHECK: __device__ void dropBuffer(float *d) { launchopt::groupCudaFree(d); }
// CHECK-LABEL: __global__ void scratch(float *out) {
// CHECK-NEXT: float *t = (float *)launchopt::singleMalloc(4 * sizeof(float));
// CHECK: launchopt::groupFree(t);
// CHECK-LABEL: void host(float **buffers, float *sums) {
// CHECK-NEXT: float *h;
// CHECK-NEXT: cudaMalloc(&h, 16);
// CHECK: cudaFree(h);

// REMARK: malloc-free-elsewhere.cu:13:3: remark: aggregate: 'cudaMalloc' in 'parent': one allocation per block, then split (launchopt::blockCudaMalloc)
// REMARK: malloc-free-elsewhere.cu:18:40: remark: aggregate: 'cudaFree' in 'dropBuffer' frees through launchopt::groupCudaFree
// REMARK: malloc-free-elsewhere.cu:27:23: remark: aggregate: 'malloc' in 'scratch' allocates alone with a group header (launchopt::singleMalloc): not in a kernel whose launches are aggregated
// REMARK: malloc-free-elsewhere.cu:30:3: remark: aggregate: 'free' in 'scratch' frees through launchopt::groupFree

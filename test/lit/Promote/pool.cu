// Promotion with aggregation (PA:N): the pool size becomes the default of
// LAUNCHOPT_PROMOTE_POOL. A const parameter, dynamic shared memory and a
// fire-and-forget launch; the launch is the last statement, under nested ifs.
// RUN: %launchopt --promote=PA:16 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: not %launchopt --promote=PA %s -o %t.bad.cu 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: not %launchopt --promote=A:3 %s -o %t.bad.cu 2>&1 | %FileCheck %s --check-prefix=BAD

static __global__ void scan_step(float *data, const int n, int step, float carry) {
  extern __shared__ float buffer[];
  int i = step * blockDim.x + threadIdx.x;
  buffer[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n)
    data[i] = carry + buffer[threadIdx.x];
  float next = carry + buffer[blockDim.x - 1];
  if (threadIdx.x == 0)
    if ((step + 1) * (int)blockDim.x < n)
      scan_step<<<1, blockDim.x, blockDim.x * sizeof(float), cudaStreamFireAndForget>>>(
          data, n, step + 1, next);
}

// A callee that reads blockIdx would see the pool block's index.
__device__ int offset_of_block() { return blockIdx.x * 32; }
__global__ void callee_index(int *data, int step) {
  data[offset_of_block() + threadIdx.x] += step;
  if (threadIdx.x == 0 && step < 10)
    callee_index<<<1, 32>>>(data, step + 1);
}

// CHECK: #define LAUNCHOPT_PROMOTE_POOL 16u
// CHECK: struct __lo_promote_args_scan_step {
// CHECK-NEXT:   float *data;
// CHECK-NEXT:   const int n;
// CHECK: static __global__ void scan_step(float *data, const int n, int step, float carry);
// CHECK: __lo_promote_pool_scan_step<<<__lo_next->size, blockDim.x, blockDim.x * sizeof(float), cudaStreamFireAndForget>>>(__lo_next);
// CHECK: else scan_step<<<1, blockDim.x, blockDim.x * sizeof(float), cudaStreamFireAndForget>>>(
// CHECK: static __global__ void scan_step(float *data, const int n, int step, float carry) {
// CHECK-NEXT:   __shared__ launchopt::promotion::Site<__lo_promote_args_scan_step> __lo_site;

// REMARK: pool.cu:21:7: remark: promote applied to launch of 'scan_step' (mode: PA, pool: 16)
// REMARK: pool.cu:{{[0-9]+}}:5: remark: not promoted: 'offset_of_block', called by the kernel, reads the built-in index variables: in a pool of successors blockIdx and gridDim differ from the one-block launch
// BAD: --promote takes

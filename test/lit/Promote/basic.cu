// Basic promotion (P): a single-block kernel relaunching itself from thread 0
// at its end. The launch moves to the start of the step (a pool of one
// successor, launched fire-and-forget after the body's barrier-free prologue
// of the leader), the site stores the postponed arguments, the block's end
// releases or aborts, and the site keeps the original launch as the fallback
// when no successor could be launched at the start.
// RUN: %launchopt --promote %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --promote=P %s -o %t.p.cu 2> /dev/null
// RUN: diff %t.cu %t.p.cu

__device__ unsigned failures;

__global__ void carry(const int *in, int *out, int n, int step, int offset) {
  __shared__ int sum;
  if (threadIdx.x == 0)
    sum = 0;
  __syncthreads();
  int i = step * 32 + threadIdx.x;
  if (i < n)
    atomicAdd(&sum, in[i]);
  __syncthreads();
  if (i < n)
    out[i] = offset + in[i];
  if (threadIdx.x == 0) {
    if ((step + 1) * 32 < n) {
      carry<<<1, 32>>>(in, out, n, step + 1, offset + sum);
      if (cudaGetLastError() != cudaSuccess)
        atomicAdd(&failures, 1u);
    }
  }
}

void run(const int *in, int *out, int n) { carry<<<1, 32>>>(in, out, n, 0, 0); }

// CHECK: #define LAUNCHOPT_PROMOTE_POOL 1u
// CHECK: struct __lo_promote_args_carry {
// CHECK-NEXT:   const int *in;
// CHECK-NEXT:   int *out;
// CHECK-NEXT:   int n;
// CHECK-NEXT:   int step;
// CHECK-NEXT:   int offset;
// CHECK-NEXT: };
// CHECK-NEXT: __global__ void carry(const int *in, int *out, int n, int step, int offset);
// CHECK: __device__ void __lo_promote_body_carry(const int *in, int *out, int n, int step, int offset, launchopt::promotion::Site<__lo_promote_args_carry> &__lo_site, const uint3 __lo_blockIdx, const dim3 __lo_gridDim) {
// The body sees the original launch's blockIdx and gridDim, whatever the pool.
// CHECK-NEXT:   const uint3 blockIdx = __lo_blockIdx;
// CHECK-NEXT:   const dim3 gridDim = __lo_gridDim;
// CHECK-NEXT:   (void)blockIdx;
// CHECK-NEXT:   (void)gridDim;
// The successor is launched before the prologue, with the launch's block size.
// CHECK-NEXT:   if (launchopt::promotion::needsPool(__lo_site)) {
// CHECK:      __lo_promote_pool_carry<<<__lo_next->size, 32, 0, cudaStreamFireAndForget>>>(__lo_next);
// CHECK:   __syncthreads();
// CHECK:   __shared__ int sum;
// The site: postponed arguments (offset + sum is known only here), else the launch as written.
// CHECK: { if (__lo_site.pool) launchopt::promotion::store(__lo_site, __lo_promote_pack_carry(in, out, n, step + 1, offset + sum)); else carry<<<1, 32>>>(in, out, n, step + 1, offset + sum); }
// CHECK-NEXT: if (cudaGetLastError() != cudaSuccess)
// The host-launched first step.
// CHECK: __global__ void carry(const int *in, int *out, int n, int step, int offset) {
// CHECK-NEXT:   __shared__ launchopt::promotion::Site<__lo_promote_args_carry> __lo_site;
// CHECK-NEXT:   launchopt::promotion::begin(__lo_site);
// CHECK-NEXT:   __lo_promote_body_carry(in, out, n, step, offset, __lo_site, blockIdx, gridDim);
// CHECK-NEXT:   launchopt::promotion::finish(__lo_site);
// CHECK-NEXT: }
// A successor: it waits for its release, then runs the body with the stored arguments.
// CHECK: __global__ void __lo_promote_pool_carry(launchopt::promotion::Pool<__lo_promote_args_carry> *__lo_pool) {
// CHECK:   if (!launchopt::promotion::enter(__lo_pool, __lo_site))
// CHECK-NEXT:     return;
// CHECK:   __lo_promote_body_carry(__lo_in.in, __lo_in.out, __lo_in.n, __lo_in.step, __lo_in.offset, __lo_site, make_uint3(0, 0, 0), dim3(1, 1, 1));
// CHECK-NEXT:   launchopt::promotion::finish(__lo_site);
// CHECK-NEXT:   launchopt::promotion::exitPool(__lo_pool);
// The host's launch is left as written.
// CHECK: void run(const int *in, int *out, int n) { carry<<<1, 32>>>(in, out, n, 0, 0); }

// REMARK: basic.cu:29:7: remark: promote applied to launch of 'carry' (mode: P, pool: 1)
// REMARK: basic.cu:36:44: remark: not promoted: host-side launch

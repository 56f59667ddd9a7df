// Promotion with overlap (PO, PAO:N): the analysis splits the body. The start
// of the body that reads only arguments known at the parent's start, writes
// only its own locals and shared memory and reads memory only from read-only
// inputs (const T *__restrict__) runs before the acquire; the acquire goes
// before the first statement that cannot (here: the read of the postponed
// 'carry'). The launch condition without its choice of thread releases the
// successor's early arguments at the start, or ends the chain there.
// RUN: %launchopt --promote=PAO:8 %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__device__ float square(float x) { return x * x; }

__global__ void chain(const float *__restrict__ in, float *out, int n, int step, float carry) {
  __shared__ float local[64];
  int i = step * 64 + threadIdx.x;
  local[threadIdx.x] = i < n ? square(in[i]) : 0.0f;
  __syncthreads();
  float mine = local[threadIdx.x] + carry;
  if (i < n)
    out[i] = mine;
  if (threadIdx.x == 0 && step + 1 < (n + 63) / 64)
    chain<<<1, 64>>>(in, out, n, step + 1, carry + local[63]);
}

// The output (out) is written, so reading it would stop the region too; a
// condition on a value the body computes gives no overlap at all.
__global__ void data_condition(const int *__restrict__ in, int *out, int step, int total) {
  __shared__ int sum;
  if (threadIdx.x == 0)
    sum = 0;
  __syncthreads();
  atomicAdd(&sum, in[step * 32 + threadIdx.x]);
  __syncthreads();
  out[step] = total + sum;
  if (threadIdx.x == 0 && sum > 0)
    data_condition<<<1, 32>>>(in, out, step + 1, total + sum);
}

// CHECK: #define LAUNCHOPT_PROMOTE_POOL 8u
// CHECK-LABEL: __device__ void __lo_promote_body_chain(
// CHECK:      if ((step + 1 < (n + 63) / 64)) {
// CHECK-NEXT:   __lo_promote_args_chain &__lo_succ = launchopt::promotion::successorArgs(__lo_site);
// CHECK-NEXT:   launchopt::promotion::put(__lo_succ.in, in);
// CHECK-NEXT:   launchopt::promotion::put(__lo_succ.out, out);
// CHECK-NEXT:   launchopt::promotion::put(__lo_succ.n, n);
// CHECK-NEXT:   launchopt::promotion::put(__lo_succ.step, step + 1);
// CHECK-NEXT:   launchopt::promotion::publish(__lo_site);
// CHECK-NEXT: } else {
// CHECK-NEXT:   launchopt::promotion::abortSuccessor(__lo_site);
// The independent region: before the acquire.
// CHECK:      local[threadIdx.x] = i < n ? square(in[i]) : 0.0f;
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: // launchopt: the independent start of the body ends here; the rest waits for the release.
// CHECK-NEXT: if (!launchopt::promotion::awaitPostponed(__lo_site))
// CHECK-NEXT:   return;
// CHECK-NEXT: if (launchopt::promotion::inPool(__lo_site)) {
// CHECK-NEXT:   const __lo_promote_args_chain &__lo_own = launchopt::promotion::arguments(__lo_site);
// CHECK-NEXT:   carry = __lo_own.carry;
// CHECK-NEXT: }
// CHECK-NEXT: float mine = local[threadIdx.x] + carry;
// Only the postponed argument is stored at the site.
// CHECK: { if (__lo_site.pool) { __lo_promote_args_chain &__lo_succ = launchopt::promotion::successorArgs(__lo_site); launchopt::promotion::put(__lo_succ.carry, carry + local[63]); launchopt::promotion::stored(__lo_site); } else chain<<<1, 64>>>(in, out, n, step + 1, carry + local[63]); }
// CHECK: if (!launchopt::promotion::enter(__lo_pool, __lo_site, true))
// Without overlap, data_condition is promoted as PA.
// CHECK-LABEL: __device__ void __lo_promote_body_data_condition(
// CHECK-NOT: awaitPostponed
// CHECK: launchopt::promotion::store(__lo_site, __lo_promote_pack_data_condition(in, out, step + 1, total + sum));

// REMARK: overlap.cu:24:5: remark: promote applied to launch of 'chain' (early-condition: (step + 1 < (n + 63) / 64), mode: PAO, overlap: 4 statement(s) before the acquire; line 20 reads the postponed parameter 'carry', pool: 8, postponed: carry)
// REMARK: overlap.cu:38:5: remark: promote applied to launch of 'data_condition' (mode: PAO, overlap: none: the launch condition 'sum > 0' depends on the body, so the successor cannot know at its start whether it runs, pool: 8)

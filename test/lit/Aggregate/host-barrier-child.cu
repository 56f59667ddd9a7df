// --aggregate=host with a child that synchronizes its blocks: the host grid's
// blocks have the child's constant block size and meet a barrier after each
// child block (its shared memory is reused); a launch that finds no room is
// launched from the device (or deferred), so the output still needs -rdc.
// RUN: %launchopt --aggregate=host %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void reverse(float *d, int n) {
  __shared__ float tile[64];
  tile[threadIdx.x] = d[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  d[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x] + n;
}

__global__ void parent(float *d, const int *blocks) {
  if (threadIdx.x == 0)
    reverse<<<blocks[blockIdx.x], 64, 0, cudaStreamFireAndForget>>>(d + blockIdx.x * 4096, 1);
}

void host(float *d, const int *blocks) { parent<<<16, 32>>>(d, blocks); }

// CHECK-LABEL: __global__ void __lo_agg_reverse(const launchopt::HostAggregation *__lo_host)
// CHECK: __syncthreads();
// CHECK: } else // pool or scope full: launch now, or defer
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: reverse<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(__lo_darg1_0, __lo_darg1_1);
// CHECK: }, cudaStreamFireAndForget);
// CHECK: launchopt::launchHostAggregated(__lo_agg_reverse, __lo_host_parent_1, 64u, 0u, false, __lo_stream);

// REMARK: host-barrier-child.cu:19:5: remark: aggregate applied to launch of 'reverse'
// REMARK-SAME: overflow: launched from the device, or deferred when the pending-launch pool is near full (build with -rdc=true)
// REMARK: remark: aggregate: device-side launches are left, of 'reverse' at line 19 (when the pool is full): build with -rdc=true -lcudadevrt

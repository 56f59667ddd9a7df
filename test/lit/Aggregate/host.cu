// --aggregate=host: a host-launched parent records its children's launches in
// one grid scope; the host arms the scope before each launch of the parent
// and launches the aggregated grid right after it, into the same stream.
// Every host launch is rewritten: in a loop, behind a wrapper, with a stream.
// With every device-side launch taken (a full pool runs the child in the
// launching thread), the output compiles and links without -rdc.
// RUN: %launchopt --aggregate=host %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-plain-link %t.cu -o %t.out

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += gridDim.x;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
  if (cudaGetLastError() != cudaSuccess)
    d[0] = -1;
}

// CHECK: // ---- launchopt runtime: launchopt/aggregation.cuh ----
// CHECK: // ---- launchopt runtime: launchopt/host_aggregation.cuh ----
// CHECK: __device__ inline void expectHostLaunch(

// The fallback runs the child in the launching thread: no launch is left.
// CHECK-LABEL: static __device__ void __lo_hserial_child(float *d, int n, const dim3 __lo_gridDim, const dim3 __lo_blockDim)

// The aggregated grid strides over the recorded child blocks.
// CHECK-LABEL: __global__ void __lo_agg_child(const launchopt::HostAggregation *__lo_host)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::HostRecords __lo_h;
// CHECK-NEXT: if (!launchopt::hostRecords(__lo_host, &__lo_h))
// CHECK-NEXT: return;
// CHECK-NEXT: for (unsigned long long __lo_unit = blockIdx.x; __lo_unit < __lo_h.units; __lo_unit += gridDim.x) {
// CHECK-NEXT: launchopt::OriginalThread __lo_t;
// CHECK-NEXT: if (launchopt::findHostOriginal(__lo_h, unsigned(__lo_unit), &__lo_t)) {
// CHECK: __lo_part_child(__lo_u.d, __lo_a.n, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK: __syncthreads();

// CHECK-LABEL: static __device__ launchopt::HostAggregation __lo_host_parent_1;

// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_child), &__lo_uniform1);
// CHECK: } else // pool or scope full: run it here
// CHECK-NEXT: {
// CHECK-NEXT: __lo_hserial_child(d, n, __lo_agrid1, __lo_ablock1);
// CHECK-NEXT: }
// With no launch left, no error can be pending.
// CHECK: if (cudaSuccess != cudaSuccess)

// No device-side launch and no tail: the scope is armed by the host.
// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NEXT: // launchopt: this kernel's launches are aggregated (grid granularity, launched by the host).
// CHECK: launchopt::AggregationScope *__lo_agg1 = &__lo_host_parent_1.scope;
// The arming kernel opened the scope: the parent neither opens it nor waits.
// CHECK-NEXT: if (__lo_thread == 0 && launchopt::linearBlock() == 0)
// CHECK-NEXT: launchopt::expectHostLaunch(&__lo_host_parent_1, "parent");
// CHECK-NEXT: __lo_part_parent(d, sizes, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);
// CHECK-NEXT: }

// CHECK-LABEL: static __global__ void __lo_arm_parent(launchopt::PoolView __lo_pool, dim3 __lo_grid, dim3 __lo_block)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::publishPool(__lo_pool);
// CHECK-NEXT: launchopt::armHostAggregation(&__lo_host_parent_1, launchopt::hostLaunchers(__lo_grid, __lo_block, false), sizeof(__lo_uargs_child));
// CHECK-NEXT: }
// CHECK-LABEL: static void __lo_hostlaunch_parent(cudaStream_t __lo_stream)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::launchHostAggregated(__lo_agg_child, __lo_host_parent_1, 128u, 0u, false, __lo_stream);
// CHECK-NEXT: }
// CHECK-NOT: <<<{{.*}}cudaStream{{FireAndForget|TailLaunch}}

cudaStream_t nextStream();

static void run(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

void host(float *d, const int *sizes, int steps) {
  for (int i = 0; i < steps; ++i)
    parent<<<4, 256, 0, nextStream()>>>(d, sizes);
  run(d, sizes);
}

int main() {
  host(nullptr, nullptr, 0);
  return 0;
}

cudaStream_t nextStream() { return 0; }

// The stream, grid and block are evaluated once, and every launch of the
// parent is rewritten. The arming kernel gets the record pool, prepared for
// 4 x 256 parent threads that each record one launch of 16 bytes of
// arguments (n: d is the same for every launch of the grid scope).
// CHECK-LABEL: static void run(float *d, const int *sizes) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 4, __lo_hblock = 256; __lo_arm_parent<<<1, 1, 0, __lo_hstream>>>(launchopt::preparePool(__lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}), __lo_hgrid, __lo_hblock); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); __lo_hostlaunch_parent(__lo_hstream); }
// CHECK: for (int i = 0; i < steps; ++i)
// CHECK-NEXT: { cudaStream_t __lo_hstream = nextStream(); dim3 __lo_hgrid = 4, __lo_hblock = 256; __lo_arm_parent<<<1, 1, 0, __lo_hstream>>>(launchopt::preparePool(__lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}), __lo_hgrid, __lo_hblock); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); __lo_hostlaunch_parent(__lo_hstream); }

// REMARK: host.cu:20:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: grid, launched by the host, host-launch: after the parent's launch at line 79, line 84, in its stream: as many blocks of 128 threads as the device holds, striding over the recorded child blocks (LAUNCHOPT_HOST_COUNT_COPY=1: the count copied back, exactly that many), overflow: run by the launching thread (__lo_hserial_child), uniform-arguments: d)
// REMARK: host.cu:20:3: remark: aggregate: no device-side launch left: the output builds as plain CUDA, without -rdc=true and -lcudadevrt (device-side cudaGetLastError/cudaPeekAtLastError, which can only return cudaSuccess now, became cudaSuccess)

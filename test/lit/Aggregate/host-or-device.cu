// --aggregate=host-or-device: for a parent grid of at least
// LAUNCHOPT_HOST_MIN_PARENT_THREADS threads the host arms the scope, launches
// a copy of the parent that records into it, then the aggregated grid; a
// smaller grid is the parent as written, which aggregates its launches in
// multi-block scopes whose grids it launches from the device. One part
// function serves both, inlined with a constant flag: the copy keeps no
// device-side launch and no error query, the parent as written keeps both.
// The output compiles with -rdc.
// RUN: %launchopt --aggregate=host-or-device %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

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

// CHECK: // ---- launchopt runtime: launchopt/deferral.cuh ----
// CHECK: // ---- launchopt runtime: launchopt/host_aggregation.cuh ----
// CHECK: #define LAUNCHOPT_HOST_MIN_PARENT_THREADS 16384
// CHECK: inline bool hostAggregates(dim3 grid, dim3 block) {

// Two aggregated kernels: the host's strides over the records of any
// count, the device's is launched with one block per child block.
// CHECK-LABEL: __global__ void __lo_hagg_child(const launchopt::HostAggregation *__lo_host)
// CHECK-LABEL: __global__ void __lo_agg_child(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK-LABEL: static __device__ void __lo_launch_child(launchopt::AggregationScope *__lo_scope, cudaStream_t __lo_stream,
// CHECK: static __device__ __attribute__((unused)) launchopt::AggregationScope __lo_groups_parent_1[LAUNCHOPT_MAX_GROUPS];

// CHECK-LABEL: static __device__ __forceinline__ void __lo_part_parent(float *d, const int *sizes, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim, launchopt::AggregationScope *__lo_agg1, const bool __lo_hosted)
// CHECK: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_child), &__lo_uniform1);
// CHECK: } else if (__lo_hosted) // pool or scope full: run it here
// CHECK-NEXT: {
// CHECK-NEXT: __lo_hserial_child(d, n, __lo_agrid1, __lo_ablock1);
// CHECK-NEXT: }
// CHECK-NEXT: else // the parent as written: launch now, or defer
// CHECK-NEXT: {
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: child<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(
// Only the parent as written can have an error pending.
// CHECK: if ((__lo_hosted ? cudaSuccess : cudaGetLastError()) != cudaSuccess)

// The parent as written aggregates in multi-block scopes; the last block
// of a group launches the group's grid.
// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NEXT: // launchopt: the grids the host does not aggregate (__lo_hparent_parent
// CHECK-NEXT: // records the others' launches): multi-block scopes, their grids launched from the device.
// CHECK: const unsigned __lo_agg1_span = launchopt::groupSpan(8u);
// CHECK: launchopt::AggregationScope *__lo_agg1 = __lo_agg1_group < LAUNCHOPT_MAX_GROUPS ? &__lo_groups_parent_1[__lo_agg1_group] : nullptr;
// CHECK: __lo_part_parent(d, sizes, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1, false);
// CHECK: launchopt::lastBlockOfScope(__lo_agg1,
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, false);
// CHECK-NOT: __lo_hserial_child
// CHECK: }

// The copy the host launches records into the scope it armed, and checks it.
// CHECK-LABEL: __global__ void __lo_hparent_parent(float *d, const int *sizes)
// CHECK-NEXT: {
// CHECK: launchopt::AggregationScope *__lo_agg1 = &__lo_host_parent_1.scope;
// CHECK: launchopt::expectHostLaunch(&__lo_host_parent_1, "parent");
// The arming kernel opened the scope: no barrier before the body.
// CHECK-NEXT: __lo_part_parent(d, sizes, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1, true);
// CHECK-NEXT: }
// CHECK-LABEL: static __global__ void __lo_arm_parent(launchopt::PoolView __lo_pool, dim3 __lo_grid, dim3 __lo_block)
// CHECK-LABEL: static void __lo_hostlaunch_parent(cudaStream_t __lo_stream)

// Each host launch picks by the grid's size; the arguments are evaluated once.
// CHECK-LABEL: void host(float *d, const int *sizes, int steps, int blocks) {
// CHECK: { cudaStream_t __lo_hstream = nextStream(); dim3 __lo_hgrid = blocks, __lo_hblock = 256; if (launchopt::hostAggregates(__lo_hgrid, __lo_hblock)) { __lo_arm_parent<<<1, 1, 0, __lo_hstream>>>(launchopt::preparePool(__lo_hgrid, __lo_hblock, {{.*}}), __lo_hgrid, __lo_hblock); __lo_hparent_parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); __lo_hostlaunch_parent(__lo_hstream); } else { launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {{.*}}); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); } }

cudaStream_t nextStream();

void host(float *d, const int *sizes, int steps, int blocks) {
  for (int i = 0; i < steps; ++i)
    parent<<<blocks, 256, 0, nextStream()>>>(d, sizes);
}

// REMARK: host-or-device.cu:22:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: grid, launched by the host for large parent grids; multi-block (8 blocks), launched from the device, for smaller ones, host-launch: for a parent grid of at least LAUNCHOPT_HOST_MIN_PARENT_THREADS threads (__lo_hparent_parent records them; a smaller grid is the parent as written, whose multi-block scopes launch them from the device), after the parent's launch at line 85, in its stream: as many blocks of 128 threads as the device holds, striding over the recorded child blocks (LAUNCHOPT_HOST_COUNT_COPY=1: the count copied back, exactly that many), overflow: run by the launching thread (__lo_hserial_child), uniform-arguments: d)
// REMARK: host-or-device.cu:22:3: remark: aggregate: device-side launches are left, of 'child' at line 22 (parent grids the host does not aggregate): build with -rdc=true -lcudadevrt

// The copy keeps the parent's launch bounds: the host launches it with the
// parent's block.
// RUN: %launchopt --aggregate=host-or-device %S/Inputs/host-or-device-bounds.cu -o %t.bounds.cu 2>/dev/null
// RUN: %FileCheck %s --check-prefix=BOUNDS < %t.bounds.cu
// RUN: %nvcc-compile %t.bounds.cu
// BOUNDS: __global__ void __launch_bounds__(kThreads, 2) wide(float *d, const int *sizes) {
// BOUNDS: __global__ void __launch_bounds__(kThreads, 2) __lo_hparent_wide(float *d, const int *sizes)

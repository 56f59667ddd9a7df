// Multi-level: parent -> child -> grandchild with block granularity; the
// aggregated child aggregates its own launches of the grandchild. At
// multi-block granularity too: grids of the child may run at once, so each
// aggregated grid of it gets its own group scopes from its launcher, and a
// launch of the child that cannot be recorded goes to a direct copy whose
// own launches are not aggregated.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=multiblock:4 %s -o %t.mb.cu 2> %t.mb.remarks
// RUN: %FileCheck %s --check-prefix=MB < %t.mb.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.mb.cu | %FileCheck %s --check-prefix=MBCODE
// RUN: %nvcc-compile %t.mb.cu

__global__ void grandchild(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = i;
}

__global__ void child(int *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  grandchild<<<(n + 63) / 64, 64>>>(d, n);
}

__global__ void parent(int *d, const int *sizes, int m) {
  child<<<m, 32>>>(d, sizes);
}

// CHECK-LABEL: __global__ void __lo_agg_grandchild(
// CHECK-LABEL: __global__ void child(int *d, const int *sizes) {
// CHECK: __lo_launch_grandchild(__lo_agg1, cudaStreamFireAndForget, true);
// CHECK-LABEL: __global__ void __lo_agg_child(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK-NEXT: {
// CHECK: __shared__ launchopt::AggregationScope __lo_agg1_block;
// CHECK: __syncthreads();
// CHECK-NEXT: launchopt::OriginalThread __lo_t;
// CHECK-NEXT: if (!launchopt::findOriginal(__lo_launch, &__lo_t))
// CHECK-NEXT: return;
// CHECK-NEXT: const __lo_uargs_child &__lo_u = *static_cast<const __lo_uargs_child *>(__lo_t.uniformArguments);
// CHECK-NEXT: __lo_part_child(__lo_u.d, __lo_u.sizes, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK-NEXT: __lo_t.blockDim, __lo_t.gridDim, __lo_agg1);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: if (__lo_thread == 0)
// CHECK-NEXT: __lo_launch_grandchild(__lo_agg1, cudaStreamFireAndForget, true);
// CHECK-NEXT: }
// CHECK-LABEL: __global__ void parent(int *d, const int *sizes, int m) {
// CHECK: __lo_launch_child(__lo_agg2, cudaStreamFireAndForget, true);

// REMARK: multi-level.cu:24:3: remark: aggregate applied to launch of 'grandchild' (aggregated-kernel: __lo_agg_grandchild, granularity: block, uniform-arguments: d)
// REMARK: multi-level.cu:28:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: block, uniform-arguments: d, sizes)

// MB: multi-level.cu:24:3: remark: aggregate applied to launch of 'grandchild' (aggregated-kernel: __lo_agg_grandchild, granularity: multi-block (4 blocks, more in a grid past LAUNCHOPT_MAX_GROUP_LAUNCHES scopes), uniform-arguments: d)
// MB: multi-level.cu:28:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: multi-block (4 blocks, more in a grid past LAUNCHOPT_MAX_GROUP_LAUNCHES scopes), uniform-arguments: d, sizes)

// MBCODE-LABEL: __global__ void child(int *d, const int *sizes) {
// MBCODE: &__lo_groups_child_1[__lo_agg1_group]
// MBCODE-LABEL: __global__ void __lo_direct_child(int *d, const int *sizes)
// MBCODE-NEXT: {
// MBCODE-NEXT: __lo_part_child(d, sizes, blockIdx, threadIdx, blockDim, gridDim, nullptr);
// MBCODE-LABEL: __global__ void __lo_agg_child(
// MBCODE: launchopt::AggregationScope *__lo_agg1 = launchopt::groupScope(__lo_launch, 0, __lo_agg1_group);
// MBCODE-LABEL: static __device__ void __lo_launch_child(
// MBCODE: __lo_direct_child<<<__lo_r.grid, __lo_r.block, __lo_r.sharedMemory, __lo_st>>>(__lo_u.d, __lo_u.sizes);
// MBCODE: launchopt::attachGroupScopes(__lo_s.launch, 1u, launchopt::groupCount(__lo_s.blocks, 4u));
// MBCODE-NEXT: const launchopt::ScopeSummary __lo_summary = __lo_s;
// MBCODE-NEXT: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_st) {
// MBCODE-NEXT: const launchopt::ScopeSummary &__lo_s = __lo_summary;
// MBCODE-NEXT: __lo_agg_child<<<
// MBCODE-LABEL: static __device__ void __lo_part_parent(
// MBCODE: else // pool or scope full: launch now, or defer
// MBCODE-NEXT: {
// MBCODE-NEXT: auto __lo_darg2_0 = d;
// MBCODE-NEXT: auto __lo_darg2_1 = sizes;
// MBCODE-NEXT: const size_t __lo_dshared2 = 0;
// MBCODE-NEXT: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// MBCODE-NEXT: __lo_direct_child<<<__lo_agrid2, __lo_ablock2, __lo_dshared2, __lo_stream>>>(__lo_darg2_0, __lo_darg2_1);

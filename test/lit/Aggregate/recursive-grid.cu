// A recursive kernel at grid granularity: each level's launches become one
// grid, tail-launched by the last block of the level before. Every aggregated
// grid gets its own grid scope from its launcher (grids of one kernel may run
// at the same time); only the host-launched grid uses the file-scope one.
// Only thread 0 of a block launches (the block is one-dimensional at every
// launch), so a scope holds one record per block, not one per thread.
// A kernel also launched from device code where that launch is not
// aggregated (here tail-launched) keeps its own launches as written.
// RUN: %launchopt --aggregate=grid %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void split(int *out, int depth) {
  out[blockIdx.x] += depth;
  if (threadIdx.x == 0 && depth < 4)
    split<<<4, 128>>>(out, depth + 1);
}

__global__ void leaf(int *out) { out[threadIdx.x] = 1; }

__global__ void fan(int *out, int n) {
  if (!threadIdx.x)
    leaf<<<1, 32>>>(out + blockIdx.x * 32);
}

__global__ void root(int *out, int n) {
  if (threadIdx.x == 0)
    fan<<<n, 64, 0, cudaStreamTailLaunch>>>(out, n);
}

void run(int *out, int n) {
  split<<<1, 128>>>(out, 0);
  root<<<1, 32>>>(out, n);
}

// CHECK-LABEL: __global__ void split(int *out, int depth) {
// CHECK: launchopt::AggregationScope *__lo_agg1 = __lo_agg1_group < LAUNCHOPT_MAX_GROUPS ? &__lo_groups_split_1[__lo_agg1_group] : nullptr;
// CHECK: launchopt::openGroupScope(__lo_agg1, (unsigned long long)launchopt::blocksPerGrid() * 1u, sizeof(__lo_uargs_split));
// CHECK: __lo_launch_split(__lo_agg1, cudaStreamTailLaunch, false);
// CHECK-LABEL: static __device__ void __lo_part_split(
// CHECK: else // pool or scope full: launch now, or defer
// CHECK-NEXT: {
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: __lo_direct_split<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(
// CHECK-LABEL: __global__ void __lo_direct_split(int *out, int depth)
// CHECK-LABEL: __global__ void __lo_agg_split(
// CHECK: launchopt::AggregationScope *__lo_agg1 = launchopt::groupScope(__lo_launch, 0, __lo_agg1_group);
// CHECK: launchopt::attachGroupScopes(__lo_s.launch, 1u, 1u);
// CHECK: __lo_agg_split<<<__lo_s.blocks, __lo_s.maxThreads, __lo_s.maxSharedMemory, __lo_st>>>(__lo_s.launch);
// CHECK-LABEL: void run(int *out, int n) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 1, __lo_hblock = 128; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {0, 0, 1, 16, 0}); split<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(out, 0); }

// REMARK: recursive-grid.cu:17:5: remark: aggregate applied to launch of 'split' (aggregated-kernel: __lo_agg_split, granularity: grid, uniform-arguments: out, depth)
// REMARK: recursive-grid.cu:24:5: remark: not aggregated: the parent is also launched from device code at line 29, a launch that is not aggregated: its grids may run at the same time and would share one group scope (use warp or block granularity)
// REMARK: recursive-grid.cu:29:5: remark: not aggregated: the child is tail-launched: it must run after the whole parent grid

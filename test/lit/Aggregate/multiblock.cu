// Multi-block granularity: groups of at least 4 parent blocks (more in a grid
// so large that it would make more than LAUNCHOPT_MAX_GROUP_LAUNCHES
// aggregated launches: launchopt::groupSpan) share a scope in a
// file-scope array; the last block of the group to finish launches, with no
// direct-launch threshold.
// RUN: %launchopt --aggregate=multiblock:4 %s -o %t.cu 2> %t.remarks
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
}

// CHECK-LABEL: static __device__ __attribute__((unused)) launchopt::AggregationScope __lo_groups_parent_1[LAUNCHOPT_MAX_GROUPS];
// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NEXT: // launchopt: this kernel's launches are aggregated (multi-block granularity).
// CHECK: const unsigned __lo_agg1_span = launchopt::groupSpan(4u);
// CHECK-NEXT: const unsigned __lo_agg1_group = launchopt::linearBlock() / __lo_agg1_span;
// CHECK-NEXT: launchopt::AggregationScope *__lo_agg1 = __lo_agg1_group < LAUNCHOPT_MAX_GROUPS ? &__lo_groups_parent_1[__lo_agg1_group] : nullptr;
// CHECK-NEXT: if (__lo_thread == 0 && __lo_agg1)
// CHECK-NEXT: launchopt::openGroupScope(__lo_agg1, (unsigned long long)min(__lo_agg1_span, launchopt::blocksPerGrid() - __lo_agg1_group * __lo_agg1_span) * __lo_blockThreads, sizeof(__lo_uargs_child));
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: __lo_part_parent(d, sizes, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: if (__lo_thread == 0 && __lo_agg1 && launchopt::lastBlockOfScope(__lo_agg1, min(__lo_agg1_span, launchopt::blocksPerGrid() - __lo_agg1_group * __lo_agg1_span))) {
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, false);
// CHECK-NEXT: launchopt::clearScope(__lo_agg1);
// CHECK-NEXT: }
// CHECK-NEXT: }

void host(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

// CHECK-LABEL: void host(float *d, const int *sizes) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 4, __lo_hblock = 256; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); }

// REMARK: multiblock.cu:19:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: multi-block (4 blocks, more in a grid past LAUNCHOPT_MAX_GROUP_LAUNCHES scopes), uniform-arguments: d)

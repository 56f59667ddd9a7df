// Grid granularity: one scope for the whole parent grid; the last block to
// finish issues the aggregated launch as a tail launch, without the host.
// RUN: %launchopt --aggregate=grid %s -o %t.cu 2> %t.remarks
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
// CHECK-NEXT: // launchopt: this kernel's launches are aggregated (grid granularity).
// CHECK: const unsigned __lo_agg1_group = launchopt::linearBlock() / launchopt::blocksPerGrid();
// CHECK: launchopt::openGroupScope(__lo_agg1, (unsigned long long)launchopt::blocksPerGrid() * __lo_blockThreads, sizeof(__lo_uargs_child));
// CHECK: if (__lo_thread == 0 && __lo_agg1 && launchopt::lastBlockOfScope(__lo_agg1, launchopt::blocksPerGrid())) {
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamTailLaunch, false);
// CHECK-NEXT: launchopt::clearScope(__lo_agg1);
// CHECK-NEXT: }

void host(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

// CHECK-LABEL: void host(float *d, const int *sizes) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 4, __lo_hblock = 256; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); }

// REMARK: grid.cu:16:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: grid, uniform-arguments: d)

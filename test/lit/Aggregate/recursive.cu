// A recursive kernel: its own launches are aggregated, in the kernel and in
// its aggregated copy; the part function, whose fallback launches the kernel
// itself, is declared before the kernel and defined after it.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void tree(int *nodes, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  nodes[i] += depth;
  if (depth > 0 && i % 2 == 0)
    tree<<<1, 2>>>(nodes, depth - 1);
}

void host(int *nodes) {
  tree<<<1, 2>>>(nodes, 5);
}

// Every argument is uniform: the per-launch struct is empty.
// CHECK-LABEL: struct __lo_uargs_tree {
// CHECK-NEXT: int *nodes;
// CHECK-NEXT: int depth;
// CHECK-LABEL: struct __lo_args_tree {
// CHECK-NEXT: __device__ __lo_args_tree() {}
// CHECK: static __device__ void __lo_part_tree(int *nodes, int depth, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim, launchopt::AggregationScope *__lo_agg1);
// CHECK-LABEL: __global__ void tree(int *nodes, int depth) {
// CHECK: __lo_part_tree(nodes, depth, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);
// CHECK: __lo_launch_tree(__lo_agg1, cudaStreamFireAndForget, true);
// CHECK: static __device__ void __lo_part_tree(int *nodes, int depth, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim, launchopt::AggregationScope *__lo_agg1)
// CHECK-NEXT: {
// CHECK: if (depth > 0 && i % 2 == 0)
// CHECK-NEXT: { // launchopt: aggregated launch of 'tree'
// CHECK: ::new (__lo_record1) __lo_args_tree();
// CHECK-NEXT: if (__lo_uniform1)
// CHECK-NEXT: ::new (__lo_uniform1) __lo_uargs_tree(nodes, depth - 1);
// CHECK: tree<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(
// CHECK-LABEL: __global__ void __lo_agg_tree(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK: __lo_part_tree(__lo_u.nodes, __lo_u.depth, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK-NEXT: __lo_t.blockDim, __lo_t.gridDim, __lo_agg1);
// CHECK-LABEL: void host(int *nodes) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 1, __lo_hblock = 2; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 0}); tree<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(nodes, 5); }

// REMARK: recursive.cu:13:5: remark: aggregate applied to launch of 'tree' (aggregated-kernel: __lo_agg_tree, granularity: block, uniform-arguments: nodes, depth)
// REMARK: recursive.cu:17:3: remark: not aggregated: host-side launch: aggregation applies to launches from device code

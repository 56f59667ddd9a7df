// --aggregate=threads packs only children whose threads are independent.
// A child with a barrier and shared memory, and a child that launches a
// grandchild, keep whole blocks (the grid-granularity aggregation), with the
// reason in the remark; the grandchild, independent, is packed, its k per
// launch (middle's aggregated grids each have their own). Both kinds live in one output.
// RUN: %launchopt --aggregate=threads %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void reverse(float *d, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? d[i] : 0.0f;
  __syncthreads();
  if (i < n)
    d[i] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void leaf(int *out, int k) { out[blockIdx.x * blockDim.x + threadIdx.x] = k; }

__global__ void middle(int *out, int k) {
  if (threadIdx.x == 0)
    leaf<<<2, 32>>>(out + 64 * blockIdx.x, k);
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  reverse<<<(n + 127) / 128, 128>>>(d, n);
}

__global__ void other_parent(int *out, const int *sizes) {
  middle<<<1, 32>>>(out + 64 * threadIdx.x, sizes[threadIdx.x]);
}

// CHECK-LABEL: __global__ void __lo_agg_reverse(
// CHECK: if (!launchopt::findOriginal(__lo_launch, &__lo_t))
// CHECK: if (!launchopt::summarize(__lo_scope, &__lo_s))
// CHECK: __lo_agg_reverse<<<__lo_s.blocks, __lo_s.maxThreads, __lo_s.maxSharedMemory, __lo_st>>>(__lo_s.launch);
// CHECK-LABEL: __global__ void __lo_agg_leaf(
// CHECK: if (!launchopt::findPackedOriginal(__lo_launch, &__lo_t))
// CHECK: __lo_agg_leaf<<<__lo_s.blocks, LAUNCHOPT_PACKED_BLOCK, 0, __lo_st>>>(__lo_s.launch);
// CHECK-LABEL: static __device__ void __lo_part_middle(
// CHECK: launchopt::reservePackedRecord(__lo_agg1,
// CHECK-LABEL: __global__ void __lo_agg_middle(
// CHECK: if (!launchopt::findOriginal(__lo_launch, &__lo_t))
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: launchopt::reserveRecord(__lo_agg2,
// CHECK-LABEL: static __device__ void __lo_part_other_parent(
// CHECK: launchopt::reserveRecord(__lo_agg3,

void host(float *d, int *out, const int *sizes) {
  parent<<<2, 64>>>(d, sizes);
  other_parent<<<1, 64>>>(out, sizes);
}

// REMARK-DAG: threads-whole-blocks.cu:24:5: remark: aggregate applied to launch of 'leaf' (aggregated-kernel: __lo_agg_leaf, granularity: grid, packing: threads){{$}}
// REMARK-DAG: threads-whole-blocks.cu:29:3: remark: aggregate applied to launch of 'reverse' (aggregated-kernel: __lo_agg_reverse, granularity: grid, packing: whole child blocks: child uses __syncthreads, uniform-arguments: d)
// REMARK-DAG: threads-whole-blocks.cu:33:3: remark: aggregate applied to launch of 'middle' (aggregated-kernel: __lo_agg_middle, granularity: grid, packing: whole child blocks: child launches 'leaf')

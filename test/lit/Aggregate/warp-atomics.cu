// An aggregated child's atomic updates of one address are applied once per
// warp and address (applyInWarp): an aggregated block runs one child's
// block, and packed threads run several children's threads side by side.
// An update the child reads back elsewhere is left as written.
// RUN: %launchopt --aggregate=block %s -o %t.block.cu 2> %t.block.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.block.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.block.remarks
// RUN: %nvcc-compile %t.block.cu
// RUN: %launchopt --aggregate=threads --assume-independent-children %s -o %t.threads.cu 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t.threads.cu | %FileCheck %s
// RUN: %nvcc-compile -DLAUNCHOPT_COMBINE_ATOMICS=0 %t.threads.cu

__global__ void row_sum(const float *v, int begin, int end, float *sum) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end)
    atomicAdd(sum, v[e]);
}

__global__ void row_count(const int *v, int begin, int end, int *count) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end && *count < 100)
    atomicAdd(count, v[e]);
}

__global__ void parent(const float *v, const int *w, const int *offsets, float *y, int *n,
                       int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int begin = offsets[r], end = offsets[r + 1];
  int blocks = (end - begin + 31) / 32;
  row_sum<<<blocks, 32>>>(v, begin, end, &y[r]);
  row_count<<<blocks, 32>>>(w, begin, end, &n[r]);
}

// CHECK: // ---- launchopt runtime: launchopt/accumulate.cuh ----
// CHECK-LABEL: static __device__ void __lo_part_row_sum(
// CHECK:   if (e < end)
// CHECK-NEXT: launchopt::accumulate::applyInWarp<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(sum, v[e]);
// CHECK-LABEL: static __device__ void __lo_part_row_count(
// CHECK:   if (e < end && *count < 100)
// CHECK-NEXT: atomicAdd(count, v[e]);

// REMARK: warp-atomics.cu:32:3: remark: aggregate applied to launch of 'row_sum' ({{.*}}combined-atomics: atomicAdd(sum): combined across the warp's lanes that name one address
// REMARK-NOT: row_count' ({{.*}}combined-atomics

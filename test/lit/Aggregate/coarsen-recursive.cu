// C -> A on a recursive kernel with barriers: coarsening keeps the body in
// the coarsening loop, so the launch there stays directly in a kernel, and the
// loop over original blocks does not count as a loop that orders launches.
// The coarsened child is defined after the kernel that first launches it, so
// its argument structs go before that kernel.
// RUN: %launchopt --coarsen --aggregate=warp %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void split(int *out, int origin, int size, int depth) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = out[origin + blockIdx.x * size];
  __syncthreads();
  if (flag != 0 && depth < 3 && threadIdx.x == 0)
    split<<<4, 32>>>(out, origin + blockIdx.x * size, size / 4, depth + 1);
  out[origin + blockIdx.x * size + threadIdx.x] += depth;
}

// CHECK: struct __lo_args___lo_coarse_split {
// CHECK-LABEL: static __device__ void __lo_part_split(
// CHECK: launchopt::reserveRecord(
// CHECK-LABEL: __global__ void split(int *out, int origin, int size, int depth) {
// CHECK-LABEL: __global__ void __lo_coarse_split(int *out, int origin, int size, int depth, const dim3 __lo_originalGrid)
// CHECK-LABEL: static __device__ void __lo_part___lo_coarse_split(
// CHECK: { // one original block
// CHECK: launchopt::reserveRecord(
// CHECK-LABEL: __global__ void __lo_agg___lo_coarse_split(

// REMARK: coarsen-recursive.cu:17:5: remark: coarsen applied to launch of 'split'
// REMARK: coarsen-recursive.cu:17:5: remark: aggregate applied to launch of '__lo_coarse_split'
// REMARK-NOT: generated there
// REMARK-SAME: {{$}}
// The launch in the coarsened copy exists only in code the coarsening pass
// inserted after 'split': the remark says so, at that place.
// REMARK-NEXT: coarsen-recursive.cu:19:2: remark: aggregate applied to launch of '__lo_coarse_split'
// REMARK-SAME: (in code an earlier pass generated there)

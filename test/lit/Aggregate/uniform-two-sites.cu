// A child launched from two sites: its argument structs and aggregated
// kernel are shared, so an argument is passed once per scope only where it
// is uniform at both sites (`n` is uniform in parentA, not in parentB).
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n, int base) {
  if (threadIdx.x < n)
    d[base + threadIdx.x] = n;
}

__global__ void parentA(float *d, int n) { child<<<1, 64>>>(d, n, threadIdx.x * 64); }

__global__ void parentB(float *d) {
  int n = threadIdx.x + 1;
  child<<<1, 64>>>(d, n, threadIdx.x * 64);
}

// CHECK-LABEL: struct __lo_uargs_child {
// CHECK-NEXT: float *d;
// CHECK-NEXT: __device__ __lo_uargs_child(float *d)
// CHECK-LABEL: struct __lo_args_child {
// CHECK-NEXT: int n;
// CHECK-NEXT: int base;
// CHECK: __lo_part_child(__lo_u.d, __lo_a.n, __lo_a.base, __lo_t.blockIdx, __lo_t.threadIdx,

// In parentA `n` is uniform, but parentB's launches need it per launch.
// CHECK-LABEL: static __device__ void __lo_part_parentA(
// CHECK: ::new (__lo_record1) __lo_args_child(n, threadIdx.x * 64);
// CHECK-NEXT: if (__lo_uniform1)
// CHECK-NEXT: ::new (__lo_uniform1) __lo_uargs_child(d);
// CHECK-LABEL: static __device__ void __lo_part_parentB(
// CHECK: ::new (__lo_record2) __lo_args_child(n, threadIdx.x * 64);
// CHECK-NEXT: if (__lo_uniform2)
// CHECK-NEXT: ::new (__lo_uniform2) __lo_uargs_child(d);

// REMARK: uniform-two-sites.cu:14:44: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: block, uniform-arguments: d)
// REMARK: uniform-two-sites.cu:18:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: block, uniform-arguments: d)

void host(float *d) {
  parentA<<<1, 32>>>(d, 16);
  parentB<<<1, 32>>>(d);
}

// Block granularity: arguments that every thread of a parent block computes
// alike (a parameter never written, a literal, a local derived from
// blockDim) are stored once per scope in __lo_uargs_child; those that depend
// on threadIdx, on a memory read or on a written local stay per launch.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

// CHECK-LABEL: struct __lo_uargs_fill {
// CHECK-NEXT: float *out;
// CHECK-NEXT: int value;
// CHECK-NEXT: int width;
// CHECK-NEXT: __device__ __lo_uargs_fill(float *out, int value, int width)
// CHECK-NEXT: : out(out), value(value), width(width) {}
// CHECK-NEXT: };
// CHECK-LABEL: struct __lo_args_fill {
// CHECK-NEXT: int lane;
// CHECK-NEXT: int first;
// CHECK-NEXT: int count;
// CHECK-NEXT: __device__ __lo_args_fill(int lane, int first, int count)
// CHECK-NEXT: : lane(lane), first(first), count(count) {}
// CHECK-NEXT: };

__global__ void fill(float *out, int value, int width, int lane, int first, int count) {
  int i = first + lane * width + threadIdx.x;
  if (threadIdx.x < count)
    out[i] = value;
}

__global__ void parent(float *out, const int *starts) {
  int width = blockDim.x * 2;
  int first = starts[blockIdx.x];
  int count = 1;
  if (threadIdx.x % 2)
    count = 2;
  fill<<<1, 32>>>(out, 7, width, threadIdx.x, first, count);
}

// CHECK-LABEL: __global__ void __lo_agg_fill(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK: const __lo_args_fill &__lo_a = *static_cast<const __lo_args_fill *>(__lo_t.arguments);
// CHECK-NEXT: const __lo_uargs_fill &__lo_u = *static_cast<const __lo_uargs_fill *>(__lo_t.uniformArguments);
// CHECK-NEXT: __lo_part_fill(__lo_u.out, __lo_u.value, __lo_u.width, __lo_a.lane, __lo_a.first, __lo_a.count, __lo_t.blockIdx, __lo_t.threadIdx,
// Under the aggregation threshold the launcher reads both structs too.
// CHECK-LABEL: static __device__ void __lo_launch_fill(
// CHECK: const __lo_args_fill &__lo_a = *static_cast<const __lo_args_fill *>(__lo_r.arguments);
// CHECK-NEXT: const __lo_uargs_fill &__lo_u = *static_cast<const __lo_uargs_fill *>(__lo_s.launch->uniformArguments);
// CHECK: fill<<<__lo_r.grid, __lo_r.block, __lo_r.sharedMemory, __lo_st>>>(__lo_u.out, __lo_u.value, __lo_u.width, __lo_a.lane, __lo_a.first, __lo_a.count);
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, cudaStreamFireAndForget);

// CHECK-LABEL: { // launchopt: aggregated launch of 'fill'
// CHECK-NEXT: const dim3 __lo_agrid1 = 1;
// CHECK-NEXT: const dim3 __lo_ablock1 = 32;
// CHECK-NEXT: void *__lo_uniform1;
// CHECK-NEXT: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_fill), &__lo_uniform1);
// CHECK-NEXT: if (__lo_record1) {
// CHECK-NEXT: ::new (__lo_record1) __lo_args_fill(threadIdx.x, first, count);
// CHECK-NEXT: if (__lo_uniform1) // first record of the scope: the arguments all share
// CHECK-NEXT: ::new (__lo_uniform1) __lo_uargs_fill(out, 7, width);
// CHECK-NEXT: } else // pool or scope full: launch now, or defer
// CHECK-NEXT: {
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: fill<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, {{.*}});
// CHECK-NEXT: }
// CHECK-NEXT: }

// REMARK: uniform-block.cu:{{[0-9]+}}:3: remark: aggregate applied to launch of 'fill' (aggregated-kernel: __lo_agg_fill, granularity: block, uniform-arguments: out, value, width)

void host(float *out, const int *starts) { parent<<<4, 64>>>(out, starts); }

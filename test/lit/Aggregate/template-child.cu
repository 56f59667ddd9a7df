// A template child launched with explicit template arguments is aggregated
// (the argument struct, aggregated kernel and launcher are templates); so is
// a launch that leaves them to deduction, named from its arguments' types
// (Aggregate/deduced-in-template.cu has one that cannot be).
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

template <typename T>
__global__ void scale(T *data, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

template <typename T>
__global__ void parent(T *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  scale<T><<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(data, n, T(2));
  scale<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(data, n, T(3));
}

template __global__ void parent<float>(float *, const int *);

// CHECK-LABEL: template <typename T>
// CHECK-NEXT: struct __lo_uargs_scale {
// CHECK-NEXT: T *data;
// CHECK: template <typename T>
// CHECK-NEXT: struct __lo_args_scale {
// CHECK-NEXT: int n;
// CHECK-NEXT: T factor;
// CHECK: as that launch's original block (disaggregation).
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: __global__ void __lo_agg_scale(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK: __lo_part_scale<T>(__lo_u.data, __lo_a.n, __lo_a.factor, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK: scale<T><<<__lo_r.grid, __lo_r.block, __lo_r.sharedMemory, __lo_st>>>(__lo_u.data, __lo_a.n, __lo_a.factor);
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, cudaStreamFireAndForget);
// CHECK-LABEL: static __device__ void __lo_part_parent(T *data,
// CHECK: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_scale<T>), &__lo_uniform1);
// CHECK-NEXT: if (__lo_record1) {
// CHECK-NEXT: ::new (__lo_record1) __lo_args_scale<T>(n, T(2));
// CHECK-NEXT: if (__lo_uniform1)
// CHECK-NEXT: ::new (__lo_uniform1) __lo_uargs_scale<T>(data);
// CHECK-NEXT: } else // pool or scope full: launch now, or defer
// CHECK-NEXT: {
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: scale<T><<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, {{.*}});
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: { // launchopt: aggregated launch of 'scale'
// CHECK: ::new (__lo_record2) __lo_args_scale<T>(n, T(3));
// CHECK: __lo_launch_scale<T>(__lo_agg1, cudaStreamFireAndForget, true);

// REMARK: template-child.cu:20:3: remark: aggregate applied to launch of 'scale'
// REMARK: template-child.cu:21:3: remark: aggregate applied to launch of 'scale'

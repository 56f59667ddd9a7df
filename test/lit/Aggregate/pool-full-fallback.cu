// When reserveRecord finds the pool or the scope full it returns null and the
// parent thread launches its child directly with every argument as written,
// the uniform ones included, in their order, with the shared memory and
// stream of the launch. The output also builds with a pool of a few KiB, in
// which most records take that path (test/gpu/run.sh runs such builds).
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_POOL_BYTES=4096 %t.cu

// The embedded runtime gives no record when the pool could not hold the
// scope's record array when the scope opened, or cannot hold the arguments.
// CHECK-LABEL: __device__ inline AggregatedLaunch *allocateRecords(
// CHECK: if (!launch)
// CHECK-NEXT: return failedLaunch();
// CHECK-LABEL: __device__ inline void *reserveRecord(
// CHECK: if (launch == nullptr || launch == failedLaunch())
// CHECK-NEXT: return nullptr;
// CHECK: void *arguments = poolAllocate(argumentBytes);
// CHECK-NEXT: if (!arguments)
// CHECK-NEXT: return nullptr;

__global__ void child(int *d, int base, int scale) {
  extern __shared__ int tile[];
  tile[threadIdx.x] = base * scale;
  d[base + threadIdx.x] = tile[threadIdx.x];
}

__global__ void parent(int *d, int scale) {
  int base = threadIdx.x * 32;
  child<<<1, 32, 32 * sizeof(int), cudaStreamFireAndForget>>>(d, base, scale);
}

// CHECK-LABEL: { // launchopt: aggregated launch of 'child'
// CHECK-NEXT: const dim3 __lo_agrid1 = 1;
// CHECK-NEXT: const dim3 __lo_ablock1 = 32;
// CHECK-NEXT: void *__lo_uniform1;
// CHECK-NEXT: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 32 * sizeof(int), sizeof(__lo_args_child), &__lo_uniform1);
// CHECK-NEXT: if (__lo_record1) {
// CHECK-NEXT: ::new (__lo_record1) __lo_args_child(base);
// CHECK-NEXT: if (__lo_uniform1)
// CHECK-NEXT: ::new (__lo_uniform1) __lo_uargs_child(d, scale);
// CHECK-NEXT: } else // pool or scope full: launch now, or defer
// CHECK-NEXT: {
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: child<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, {{.*}});
// CHECK-NEXT: }
// CHECK-NEXT: }

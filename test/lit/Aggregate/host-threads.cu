// --aggregate=threads:host: a child of independent threads is packed thread
// by thread; the host launches blocks of LAUNCHOPT_PACKED_BLOCK threads that
// stride over the packed threads. The variant that copies the count back
// (LAUNCHOPT_HOST_COUNT_COPY) compiles too.
// RUN: %launchopt --aggregate=threads:host %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-plain-compile %t.cu
// RUN: %nvcc-plain-compile -DLAUNCHOPT_HOST_COUNT_COPY=1 %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

__global__ void parent(float *d, const int *sizes, int block) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  child<<<(n + block - 1) / block, block>>>(d, n);
}

void host(float *d, const int *sizes, cudaStream_t s) {
  parent<<<8, 128, 0, s>>>(d, sizes, 64);
}

// CHECK: // ---- launchopt runtime: launchopt/thread_aggregation.cuh ----
// CHECK: // ---- launchopt runtime: launchopt/host_aggregation.cuh ----
// CHECK-LABEL: __global__ void __lo_agg_child(const launchopt::HostAggregation *__lo_host)
// CHECK: if (!launchopt::hostPackedRecords(__lo_host, &__lo_h))
// CHECK: if (launchopt::findHostPackedOriginal(__lo_h, __lo_unit, &__lo_t)) {
// CHECK: void *__lo_record1 = launchopt::reservePackedRecord(__lo_agg1,
// CHECK-LABEL: static void __lo_hostlaunch_parent(cudaStream_t __lo_stream)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::launchHostAggregated(__lo_agg_child, __lo_host_parent_1, LAUNCHOPT_PACKED_BLOCK, 0, true, __lo_stream);
// CHECK: { cudaStream_t __lo_hstream = s; dim3 __lo_hgrid = 8, __lo_hblock = 128; __lo_arm_parent<<<1, 1, 0, __lo_hstream>>>(launchopt::preparePool(__lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}), __lo_hgrid, __lo_hblock); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes, 64); __lo_hostlaunch_parent(__lo_hstream); }

// A child block size that is not a constant needs packing: whole blocks refuse it.
// RUN: %launchopt --aggregate=host %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=WHOLE
// WHOLE: host-threads.cu:19:3: remark: not aggregated: the child's block size at line 19 is not a constant: the host cannot size the aggregated grid's blocks (--aggregate=threads:host packs the threads of a child without barriers)

// REMARK: host-threads.cu:19:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: grid, launched by the host, host-launch: after the parent's launch at line 23, in its stream: as many blocks of LAUNCHOPT_PACKED_BLOCK threads as the device holds, striding over the recorded child threads (LAUNCHOPT_HOST_COUNT_COPY=1: the count copied back, exactly that many), overflow: run by the launching thread (__lo_hserial_child), packing: threads, uniform-arguments: d)
// REMARK: remark: aggregate: no device-side launch left: the output builds as plain CUDA

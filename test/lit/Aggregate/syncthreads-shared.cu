// A child with a barrier and static and dynamic shared memory is aggregated:
// the record keeps the dynamic size, the aggregated grid gets the largest, and
// threads beyond the original block size exit before the child's barrier.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void reverse(float *d, int n) {
  __shared__ float tile[128];
  extern __shared__ float scratch[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? d[i] : 0.0f;
  scratch[threadIdx.x] = tile[threadIdx.x];
  __syncthreads();
  if (i < n)
    d[i] = tile[blockDim.x - 1 - threadIdx.x] + scratch[0];
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  reverse<<<(n + 127) / 128, 128, 128 * sizeof(float)>>>(d, n);
}

// CHECK-LABEL: static __device__ void __lo_part_reverse(
// CHECK: __shared__ float tile[128];
// CHECK-NEXT: extern __shared__ float scratch[];
// CHECK-LABEL: __global__ void __lo_agg_reverse(
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::OriginalThread __lo_t;
// CHECK-NEXT: if (!launchopt::findOriginal(__lo_launch, &__lo_t))
// CHECK-NEXT: return;
// CHECK: __lo_agg_reverse<<<__lo_s.blocks, __lo_s.maxThreads, __lo_s.maxSharedMemory, __lo_st>>>(__lo_s.launch);
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 128 * sizeof(float), sizeof(__lo_args_reverse), &__lo_uniform1);
// CHECK: const size_t __lo_dshared1 = 128 * sizeof(float);
// CHECK-NEXT: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: reverse<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(__lo_darg1_0, __lo_darg1_1);

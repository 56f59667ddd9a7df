// Block sizes that differ between the launching threads: each record keeps
// its own block, the aggregated grid runs with the largest, and the threads
// beyond a record's block size leave the aggregated block at once.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d, int base) { d[base + threadIdx.x] = blockDim.x; }

__global__ void parent(int *d) {
  int t = threadIdx.x;
  child<<<1, 32 * (t % 4 + 1)>>>(d, t * 128);
}

// CHECK-LABEL: __global__ void __lo_agg_child(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::OriginalThread __lo_t;
// CHECK-NEXT: if (!launchopt::findOriginal(__lo_launch, &__lo_t))
// CHECK-NEXT: return;
// CHECK: __lo_agg_child<<<__lo_s.blocks, __lo_s.maxThreads, __lo_s.maxSharedMemory, __lo_st>>>(__lo_s.launch);
// CHECK-LABEL: static __device__ void __lo_part_parent(int *d,
// CHECK: const dim3 __lo_agrid1 = 1;
// CHECK-NEXT: const dim3 __lo_ablock1 = 32 * (t % 4 + 1);
// CHECK-NEXT: void *__lo_uniform1;
// CHECK-NEXT: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_child), &__lo_uniform1);

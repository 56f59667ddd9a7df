// --aggregate=threads: grid granularity with the child threads packed
// densely. Each parent thread reserves a record whose running sum counts
// child threads; the last block tail-launches one grid of
// LAUNCHOPT_PACKED_BLOCK-thread blocks, whose threads find their launch and
// their index in it (findPackedOriginal).
// RUN: %launchopt --aggregate=threads %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// The same text from the spelled-out granularity.
// RUN: %launchopt --aggregate=threads:grid %s -o %t.grid.cu 2> /dev/null
// RUN: diff %t.cu %t.grid.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += gridDim.x;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

// The thread-packing runtime is embedded after the aggregation runtime it builds on.
// CHECK: // ---- launchopt runtime: launchopt/aggregation.cuh ----
// CHECK: // ---- launchopt runtime: launchopt/thread_aggregation.cuh ----
// CHECK: #define LAUNCHOPT_PACKED_BLOCK 256
// The threads of a warp that reserve in one scope together add to its counter once.
// CHECK: __device__ inline void *reservePackedRecord(
// CHECK: cg::coalesced_group peers = cg::coalesced_threads();
// CHECK: unsigned through = cg::inclusive_scan(peers, unsigned(threads));
// CHECK: __device__ inline bool findPackedOriginal(

// CHECK-LABEL: // launchopt: 'child' aggregated thread by thread: the threads of the scope's launches
// CHECK-NEXT: // are packed densely; each finds the launch it belongs to and its place in it.
// CHECK-NEXT: __global__ void __lo_agg_child(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::OriginalThread __lo_t;
// CHECK-NEXT: if (!launchopt::findPackedOriginal(__lo_launch, &__lo_t))
// CHECK-NEXT: return;
// CHECK: __lo_part_child(__lo_u.d, __lo_a.n, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK-NEXT: __lo_t.blockDim, __lo_t.gridDim);
// CHECK-NEXT: }

// CHECK-LABEL: static __device__ void __lo_launch_child(
// CHECK: if (!launchopt::summarizePacked(__lo_scope, &__lo_s))
// CHECK: const launchopt::PackedRecord &__lo_r =
// CHECK-NEXT: launchopt::packedRecords(__lo_s.launch)[__lo_i];
// CHECK: child<<<__lo_r.grid, __lo_r.block, __lo_r.sharedMemory, __lo_st>>>(__lo_u.d, __lo_a.n);
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, cudaStreamFireAndForget);
// CHECK: __lo_agg_child<<<__lo_s.blocks, LAUNCHOPT_PACKED_BLOCK, 0, __lo_st>>>(__lo_s.launch);

// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: void *__lo_record1 = launchopt::reservePackedRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_child), &__lo_uniform1);
// CHECK: } else // pool or scope full: launch now, or defer
// CHECK-NEXT: {
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: child<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(

// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NEXT: // launchopt: this kernel's launches are aggregated (grid granularity).
// CHECK: launchopt::openGroupScope(__lo_agg1, (unsigned long long)launchopt::blocksPerGrid() * __lo_blockThreads, sizeof(__lo_uargs_child));
// CHECK: if (__lo_thread == 0 && __lo_agg1 && launchopt::lastBlockOfScope(__lo_agg1, launchopt::blocksPerGrid())) {
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamTailLaunch, false);

void host(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

// REMARK: threads-grid.cu:22:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: grid, packing: threads, uniform-arguments: d)

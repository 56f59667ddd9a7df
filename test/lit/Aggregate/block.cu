// Block granularity: the child grids launched by the threads of one parent
// block become one aggregated launch by thread 0 at the end of the block.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

// CHECK: #ifndef LAUNCHOPT_AGG_THRESHOLD
// CHECK-NEXT: #define LAUNCHOPT_AGG_THRESHOLD 2
// CHECK-NEXT: #endif

// `d` is the parent's parameter, never written: stored once per scope.
// CHECK-LABEL: struct __lo_uargs_child {
// CHECK-NEXT: float *d;
// CHECK-NEXT: __device__ __lo_uargs_child(float *d)
// CHECK-NEXT: : d(d) {}
// CHECK-NEXT: };
// CHECK-LABEL: struct __lo_args_child {
// CHECK-NEXT: int n;
// CHECK-NEXT: __device__ __lo_args_child(int n)
// CHECK-NEXT: : n(n) {}
// CHECK-NEXT: };
// CHECK-LABEL: static __device__ void __lo_part_child(float *d, int n, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)
// CHECK-NEXT: {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;
// CHECK-NEXT: const uint3 threadIdx = __lo_threadIdx;
// CHECK-NEXT: const dim3 blockDim = __lo_blockDim;
// CHECK-NEXT: const dim3 gridDim = __lo_gridDim;

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += gridDim.x;
}

// CHECK-LABEL: __global__ void __lo_agg_child(const launchopt::AggregatedLaunch *__lo_launch)
// CHECK-NEXT: {
// CHECK-NEXT: launchopt::OriginalThread __lo_t;
// CHECK-NEXT: if (!launchopt::findOriginal(__lo_launch, &__lo_t))
// CHECK-NEXT: return;
// CHECK-NEXT: const __lo_args_child &__lo_a = *static_cast<const __lo_args_child *>(__lo_t.arguments);
// CHECK-NEXT: const __lo_uargs_child &__lo_u = *static_cast<const __lo_uargs_child *>(__lo_t.uniformArguments);
// CHECK-NEXT: __lo_part_child(__lo_u.d, __lo_a.n, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK-NEXT: __lo_t.blockDim, __lo_t.gridDim);
// CHECK-NEXT: }
// CHECK-LABEL: static __device__ void __lo_launch_child(launchopt::AggregationScope *__lo_scope, cudaStream_t __lo_stream,
// CHECK: if (__lo_allowDirect && __lo_s.count < LAUNCHOPT_AGG_THRESHOLD) {
// CHECK: child<<<__lo_r.grid, __lo_r.block, __lo_r.sharedMemory, __lo_st>>>(__lo_u.d, __lo_a.n);
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, cudaStreamFireAndForget);
// CHECK: __lo_agg_child<<<__lo_s.blocks, __lo_s.maxThreads, __lo_s.maxSharedMemory, __lo_st>>>(__lo_s.launch);

// CHECK-LABEL: static __device__ void __lo_part_parent(float *d, const int *sizes, const uint3 __lo_blockIdx,
// CHECK: int n = sizes[threadIdx.x];
// CHECK-NEXT: { // launchopt: aggregated launch of 'child'
// CHECK-NEXT: const dim3 __lo_agrid1 = (n + 127) / 128;
// CHECK-NEXT: const dim3 __lo_ablock1 = 128;
// CHECK-NEXT: void *__lo_uniform1;
// CHECK-NEXT: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_child), &__lo_uniform1);
// CHECK-NEXT: if (__lo_record1) {
// CHECK-NEXT: ::new (__lo_record1) __lo_args_child(n);
// CHECK-NEXT: if (__lo_uniform1) // first record of the scope: the arguments all share
// CHECK-NEXT: ::new (__lo_uniform1) __lo_uargs_child(d);
// CHECK-NEXT: } else // pool or scope full: launch now, or defer
// CHECK-NEXT: {
// CHECK: launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
// CHECK-NEXT: child<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(
// CHECK-NEXT: return cudaGetLastError() == cudaSuccess;
// CHECK-NEXT: }, {{.*}});
// CHECK-NEXT: }
// CHECK-NEXT: }

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NEXT: // launchopt: this kernel's launches are aggregated (block granularity).
// CHECK-NEXT: const unsigned __lo_thread = launchopt::linearThread();
// CHECK-NEXT: const unsigned __lo_blockThreads = blockDim.x * blockDim.y * blockDim.z;
// CHECK-NEXT: (void)__lo_blockThreads;
// CHECK-NEXT: __shared__ launchopt::AggregationScope __lo_agg1_block;
// CHECK-NEXT: if (__lo_thread == 0) {
// CHECK-NEXT: launchopt::clearScope(&__lo_agg1_block);
// CHECK-NEXT: launchopt::openScope(&__lo_agg1_block, __lo_blockThreads, sizeof(__lo_uargs_child));
// CHECK-NEXT: }
// CHECK-NEXT: launchopt::AggregationScope *__lo_agg1 = &__lo_agg1_block;
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: __lo_part_parent(d, sizes, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: if (__lo_thread == 0)
// CHECK-NEXT: __lo_launch_child(__lo_agg1, cudaStreamFireAndForget, true);
// CHECK-NEXT: }

void host(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

// CHECK-LABEL: void host(float *d, const int *sizes) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 4, __lo_hblock = 256; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); }

// REMARK: block.cu:76:3: remark: aggregate applied to launch of 'child' (aggregated-kernel: __lo_agg_child, granularity: block, uniform-arguments: d)
// REMARK: block.cu:98:3: remark: not aggregated: host-side launch: aggregation applies to launches from device code

// Launches of one parent thread into the block's NULL stream that no proof
// separates keep their order at warp and block granularity (ordered scopes):
// the scopes of such launches open together or not at all, each thread's
// arguments go to a slot of its own (so a record is refused only when the
// scopes could not be opened), the aggregated grids go into the NULL stream
// in the launches' order, and a launch that cannot be recorded is made at
// once and never deferred. Launches in loops, into a named stream, or of a
// warp-granular parent with barriers are still refused, with the reason.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %FileCheck %s --check-prefix=BLOCK < %t.cu
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=warp %s -o %t.w.cu 2> %t.w.remarks
// RUN: %FileCheck %s --check-prefix=WARP-REMARKS < %t.w.remarks
// RUN: %FileCheck %s --check-prefix=WARP < %t.w.cu
// RUN: %nvcc-compile %t.w.cu

__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = i;
}

__global__ void twice(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 2 * a[i] + 1;
}

__global__ void chain(int *a, int n) {
  int *mine = a + threadIdx.x * n;
  fill<<<(n + 31) / 32, 32>>>(mine, n);
  twice<<<(n + 31) / 32, 32>>>(mine, n);
  if (n % 2 == 0)
    twice<<<(n + 63) / 64, 64>>>(mine, n);
}

__global__ void acrossBarrier(int *a, int n) {
  fill<<<1, 32>>>(a + threadIdx.x * 32, 32);
  __syncthreads();
  twice<<<1, 32>>>(a + (threadIdx.x ^ 1) * 32, 32);
}

__global__ void firstThread(int *a, int n) {
  if (threadIdx.x == 0) {
    fill<<<(n + 31) / 32, 32>>>(a, n);
    twice<<<(n + 31) / 32, 32>>>(a, n);
  }
}

__global__ void inLoop(int *a, int n, int rounds) {
  fill<<<(n + 31) / 32, 32>>>(a, n);
  for (int r = 0; r < rounds; ++r)
    twice<<<(n + 31) / 32, 32>>>(a, n);
}

__global__ void named(int *a, int n, cudaStream_t s) {
  fill<<<(n + 31) / 32, 32, 0, s>>>(a, n);
  twice<<<(n + 31) / 32, 32, 0, s>>>(a, n);
}

// REMARKS: ordered-scopes.cu:32:3: remark: aggregate applied to launch of 'fill' ({{.*}}order: kept with the launches at line 33, line 35 (aggregated grids in the block's NULL stream, in order)
// REMARKS: ordered-scopes.cu:33:3: remark: aggregate applied to launch of 'twice' ({{.*}}order: kept with the launches at line 32, line 35
// REMARKS: ordered-scopes.cu:35:5: remark: aggregate applied to launch of 'twice' ({{.*}}order: kept with the launches at line 32, line 33
// REMARKS: ordered-scopes.cu:39:3: remark: aggregate applied to launch of 'fill' ({{.*}}order: kept with the launches at line 41
// REMARKS: ordered-scopes.cu:41:3: remark: aggregate applied to launch of 'twice' ({{.*}}order: kept with the launches at line 39
// REMARKS: ordered-scopes.cu:46:5: remark: aggregate applied to launch of 'fill' ({{.*}}order: kept with the launches at line 47
// REMARKS: ordered-scopes.cu:47:5: remark: aggregate applied to launch of 'twice' ({{.*}}order: kept with the launches at line 46
// REMARKS: ordered-scopes.cu:52:3: remark: not aggregated: the launch of 'twice' at line 54, which may follow this one into the same stream, is not aggregated
// REMARKS: ordered-scopes.cu:54:5: remark: not aggregated: {{.*}}; not kept in order: the launch at line 54 is in a loop, and one aggregated grid would run its turns together
// REMARKS: ordered-scopes.cu:58:3: remark: not aggregated: the launch of 'twice' at line 59, which may follow this one
// REMARKS: ordered-scopes.cu:59:3: remark: not aggregated: {{.*}}; not kept in order: the launch at line 58 goes into a named stream, not the block's NULL stream

// The scopes of 'chain' open together; each thread's arguments go to its slot.
// BLOCK-LABEL: __global__ void chain(int *a, int n) {
// BLOCK: launchopt::openOrderedScope(&[[S1:__lo_agg[0-9]+]]_block, __lo_blockThreads, {{[^,]+}}, sizeof(__lo_args_fill));
// BLOCK: launchopt::openOrderedScope(&[[S2:__lo_agg[0-9]+]]_block, __lo_blockThreads, {{[^,]+}}, sizeof(__lo_args_twice));
// BLOCK: launchopt::openOrderedScope(&[[S3:__lo_agg[0-9]+]]_block, __lo_blockThreads, {{[^,]+}}, sizeof(__lo_args_twice));
// BLOCK: launchopt::AggregationScope *const __lo_ordered[] = {&[[S1]]_block, &[[S2]]_block, &[[S3]]_block};
// BLOCK-NEXT: launchopt::joinOrderedScopes(__lo_ordered, 3u);
// The aggregated grids go into the NULL stream (0) in the launches' order, whole.
// BLOCK: __lo_launch_fill([[S1]], 0, false);
// BLOCK: __lo_launch_twice([[S2]], 0, false);
// BLOCK: __lo_launch_twice([[S3]], 0, false);
// One thread per block launches in 'firstThread': its slot is 0.
// BLOCK: launchopt::reserveOrderedRecord({{.*}}, 0u, &__lo_uniform
// BLOCK: launchopt::reserveOrderedRecord({{.*}}, launchopt::linearThread()
// BLOCK: else // the ordered scopes could not be opened: launch now, in order
// BLOCK: launchopt::deferral::launchInOrder([=](cudaStream_t __lo_stream) {
// BLOCK: return cudaGetLastError();
// The launcher makes an ordered scope's grid in order, never deferred.
// BLOCK: if (__lo_stream == 0) {
// BLOCK: launchopt::deferral::launchInOrder(

// WARP-REMARKS: ordered-scopes.cu:32:3: remark: aggregate applied to launch of 'fill' ({{.*}}granularity: warp, order: kept with the launches at line 33, line 35
// WARP-REMARKS: ordered-scopes.cu:41:3: remark: not aggregated: {{.*}}; not kept in order: the parent has barriers, which order the launches of all its warps: use block granularity
// WARP-REMARKS: ordered-scopes.cu:46:5: remark: aggregate applied to launch of 'fill' ({{.*}}granularity: warp, order:

// Each warp's opener joins its warp's ordered scopes; a thread's slot is its lane.
// WARP-LABEL: __global__ void chain(int *a, int n) {
// WARP: launchopt::AggregationScope *const __lo_ordered[] = {&{{__lo_agg[0-9]+}}_warps[__lo_thread], &{{__lo_agg[0-9]+}}_warps[__lo_thread], &{{__lo_agg[0-9]+}}_warps[__lo_thread]};
// WARP-NEXT: launchopt::joinOrderedScopes(__lo_ordered, 3u);
// WARP: if (__lo_thread % 32 == 0)
// WARP-NEXT: __lo_launch_fill({{__lo_agg[0-9]+}}, 0, false);
// WARP: launchopt::linearThread() % 32u

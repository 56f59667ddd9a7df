// A child with barriers and shared memory cannot run in the parent thread:
// it is launched while the controller's limits allow, else deferred with its
// arguments as evaluated at the launch, to be launched by the parent grid's
// drain. The child launches nothing, so only the pending-launch pool bounds
// its grids (`true`). Its spawned copy is its body under a guard by which
// every thread reports its end (early returns included). The output
// compiles.
// RUN: %launchopt --spawn %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_COUNTERS %t.cu

__global__ void child(int *d, int n) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  if (threadIdx.x >= n)
    return;
  atomicAdd(&total, d[threadIdx.x]);
}

__global__ void parent(int *d, const int *sizes) {
  child<<<1, 64>>>(d + threadIdx.x * 64, sizes[threadIdx.x]);
}

// REMARK: deferred-barrier-child.cu:25:3: remark: spawn applied to launch of 'child' (deferred-when-refused: child uses __syncthreads, spawned-kernel: __lo_spawned_child
// CHECK: launchopt runtime: launchopt/deferral.cuh
// CHECK: launchopt runtime: launchopt/spawn.cuh
// CHECK: static __global__ void __lo_spawned_child(int *d, int n, const unsigned __lo_ticket)
// CHECK-NEXT: {
// CHECK-NEXT: const launchopt::spawn::ThreadExit __lo_exit(__lo_ticket);
// CHECK-NEXT: {
// CHECK-NEXT: __shared__ int total;
// CHECK-NOT: __lo_spawn_serial_child
// CHECK: __global__ void parent(int *d, const int *sizes) {
// CHECK: auto __lo_sarg1_0 = d + threadIdx.x * 64;
// CHECK-NEXT: auto __lo_sarg1_1 = sizes[threadIdx.x];
// CHECK-NEXT: const unsigned __lo_sticket1 = launchopt::spawn::admitBlockChild(1u, __lo_sgrid1, __lo_sblock1, __lo_sthreads1, true);
// CHECK-NEXT: if (__lo_sticket1 != 0)
// CHECK-NEXT: __lo_spawned_child<<<__lo_sgrid1, __lo_sblock1, 0, 0>>>(__lo_sarg1_0, __lo_sarg1_1, __lo_sticket1);
// CHECK-NEXT: if (__lo_sticket1 == 0 ||
// CHECK-NEXT: !launchopt::spawn::blockChildLaunched(1u, __lo_sticket1, __lo_sgrid1))
// CHECK-NEXT: launchopt::spawn::deferBlockChild(
// CHECK-NEXT: 1u, __lo_sgrid1, __lo_sblock1, __lo_sthreads1, true,
// CHECK-NEXT: [=](unsigned __lo_t, cudaStream_t __lo_stream) {
// CHECK-NEXT: __lo_spawned_child<<<__lo_sgrid1, __lo_sblock1, 0, __lo_stream>>>(__lo_sarg1_0, __lo_sarg1_1, __lo_t);
// CHECK-NEXT: });

// The deferred launch (in a closure the grid's drain runs after the grid and
// all it launched) follows every launch of the parent thread, so aggregation
// takes the spawned launch beside it; the closure's own launch stays, as
// every launch in a lambda does.
// RUN: %launchopt --spawn --aggregate=block %s -o %t.sa.cu 2> %t.sa.remarks
// RUN: %FileCheck %s --check-prefix=AGGREGATE < %t.sa.remarks
// RUN: %nvcc-compile %t.sa.cu
// AGGREGATE: deferred-barrier-child.cu:25:3: remark: spawn applied to launch of 'child' (deferred-when-refused: child uses __syncthreads
// AGGREGATE: deferred-barrier-child.cu:25:3: remark: aggregate applied to launch of '__lo_spawned_child' (aggregated-kernel: __lo_agg___lo_spawned_child, granularity: block)
// AGGREGATE: deferred-barrier-child.cu:25:3: remark: not aggregated: the launch is written in a lambda, which may run it after the parent's block has gathered its launches, or in another grid

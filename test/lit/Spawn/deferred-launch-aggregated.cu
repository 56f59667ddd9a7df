// Spawn defers a refused barrier child through a closure that the parent
// grid's drain runs after the grid and all it launched have ended. That
// deferred launch follows every launch of the parent thread, so it puts
// none of them out of order: aggregation takes the spawned launch (the
// closure's own launch stays, as every launch in a lambda does). The output
// compiles.
// RUN: %launchopt --spawn --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

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

// REMARK: deferred-launch-aggregated.cu:22:3: remark: spawn applied to launch of 'child' (deferred-when-refused: child uses __syncthreads
// REMARK: deferred-launch-aggregated.cu:22:3: remark: aggregate applied to launch of '__lo_spawned_child' (aggregated-kernel: __lo_agg___lo_spawned_child, granularity: block)
// REMARK: deferred-launch-aggregated.cu:22:3: remark: not aggregated: the launch is written in a lambda, which may run it after the parent's block has gathered its launches, or in another grid

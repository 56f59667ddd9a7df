// auto: the host-side selector picks per site. A child whose threads work
// together (barriers, shared memory) is run by the parent block (T3); a child
// known to have at least 1024 threads by the parent block (T3); a child with
// independent threads and a data-dependent size by a persistent megakernel
// where the parent can be made persistent (a child of at most
// LAUNCHOPT_PERSISTENT_INLINE_THREADS threads runs in the launching thread,
// the others are recorded and the device packs their threads or picks T1 or
// T2; the grid has at least LAUNCHOPT_PERSISTENT_MIN_BLOCKS_PER_SM blocks per
// SM), else
// by the parent thread (T4); a small constant child by the megakernel, which
// the host launches only when the device holds more blocks than the parent's
// grid (Fig. 7a). One child block per parent block, launched by its leader
// thread, is run by the parent block (T3) even where its threads work
// together and a persistent grid could take it: the parent's grid spreads
// the children already.
// RUN: %launchopt --remove-launches %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-plain-compile %t.cu
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s --check-prefix=HOST
// HOST: if (launchopt::persistent::runsInline(__lo_r{{[0-9]+}}.shape.grid, __lo_r{{[0-9]+}}.shape.block) || !launchopt::persistent::record(__lo_pq_parent_small, __lo_r{{[0-9]+}}))
// HOST: runRecorded(__lo_pq_parent_small, launchopt::persistent::Choose,
// HOST: launchopt::persistent::launch(__lo_persistent_parent_small, parent_small, __lo_pq_parent_small, launchopt::persistent::AlwaysSpread,
// HOST: launchopt::persistent::launch(__lo_persistent_parent_uniform, parent_uniform, __lo_pq_parent_uniform, launchopt::persistent::MoreResidentThanOriginal,
#include <cuda_runtime.h>

__global__ void tile(int *out) {
  __shared__ int t[32];
  t[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = t[31 - threadIdx.x];
}

__global__ void add_one(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += 1;
}

__global__ void parent_tiles(int **outs) { tile<<<2, 32>>>(outs[threadIdx.x]); }
__global__ void parent_small(int **outs, const int *sizes) {
  add_one<<<(sizes[threadIdx.x] + 31) / 32, 32>>>(outs[threadIdx.x], sizes[threadIdx.x]);
}
__global__ void parent_large(int **outs) { add_one<<<16, 128>>>(outs[threadIdx.x], 2048); }
__global__ void parent_uniform(int **outs) { add_one<<<2, 32>>>(outs[threadIdx.x], 64); }
__global__ void parent_twice(int **outs, const int *sizes) {
  add_one<<<(sizes[threadIdx.x] + 31) / 32, 32>>>(outs[threadIdx.x], sizes[threadIdx.x]);
  add_one<<<1, 32>>>(outs[threadIdx.x], 1);
}

__global__ void tile64(int *out) {
  __shared__ int t[64];
  t[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = t[63 - threadIdx.x];
}
__global__ void parent_leader(int **outs) {
  if (threadIdx.x == 0)
    tile64<<<1, 64>>>(outs[blockIdx.x]);
}

void run(int **outs, const int *sizes) {
  parent_tiles<<<1, 64>>>(outs);
  parent_small<<<1, 64>>>(outs, sizes);
  parent_large<<<1, 64>>>(outs);
  parent_uniform<<<1, 64>>>(outs);
  parent_twice<<<1, 64>>>(outs, sizes);
  parent_leader<<<8, 64>>>(outs);
}

// CHECK: ('parent_tiles' -> 'tile'): remove-launches: applied
// CHECK-NEXT: auto: T3 (CKi -> PBi): the child's threads work together (barriers, shared memory or warp primitives): a parent block runs its blocks
// CHECK: version: T3 (CKi -> PBi)
// CHECK: ('parent_small' -> 'add_one'): remove-launches: applied
// CHECK-NEXT: auto: megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2): child grids of data-dependent sizes: a child of at most LAUNCHOPT_PERSISTENT_INLINE_THREADS threads runs in the launching thread (T4)
// CHECK: function: __lo_persistent_parent_small
// CHECK: version: megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2)
// CHECK: ('parent_large' -> 'add_one'): remove-launches: applied
// CHECK-NEXT: auto: T3 (CKi -> PBi): the child has 2048 threads, known large: the parent block shares them
// CHECK: version: T3 (CKi -> PBi)
// CHECK: ('parent_uniform' -> 'add_one'): remove-launches: applied
// CHECK-NEXT: auto: megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2): uniform child grids (a constant configuration): the host launches the persistent grid when the device holds more blocks than the parent's grid
// CHECK: ('parent_twice' -> 'add_one'): remove-launches: applied
// CHECK-NEXT: auto: T4 (CKi -> PTi): the child's threads are independent and its size is data-dependent
// CHECK: version: T4 (CKi -> PTi)
// CHECK: ('parent_leader' -> 'tile64'): remove-launches: applied
// CHECK-NEXT: auto: T3 (CKi -> PBi): one child block per parent block, launched by one thread: the parent block runs it, and the parent's grid spreads the children over the device
// CHECK: version: T3 (CKi -> PBi)
// CHECK: remove-launches: note: every device-side launch of this file is removed

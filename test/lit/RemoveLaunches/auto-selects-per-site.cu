// auto: the host-side selector picks per site. A child whose threads work
// together (barriers, shared memory) is run by the parent block (T3); a child
// with independent threads and a data-dependent size by the parent thread
// (T4); a child known to have at least 1024 threads by the parent block (T3).
// RUN: %launchopt --remove-launches %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-plain-compile %t.cu
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

void run(int **outs, const int *sizes) {
  parent_tiles<<<1, 64>>>(outs);
  parent_small<<<1, 64>>>(outs, sizes);
  parent_large<<<1, 64>>>(outs);
}

// CHECK: ('parent_tiles' -> 'tile'): remove-launches: applied
// CHECK-NEXT: auto: T3 (CKi -> PBi): the child's threads work together (barriers, shared memory or warp primitives): a parent block runs its blocks
// CHECK: version: T3 (CKi -> PBi)
// CHECK: ('parent_small' -> 'add_one'): remove-launches: applied
// CHECK-NEXT: auto: T4 (CKi -> PTi): the child's threads are independent and its size is data-dependent
// CHECK: version: T4 (CKi -> PTi)
// CHECK: ('parent_large' -> 'add_one'): remove-launches: applied
// CHECK-NEXT: auto: T3 (CKi -> PBi): the child has 2048 threads, known large: the parent block shares them
// CHECK: version: T3 (CKi -> PBi)
// CHECK: remove-launches: note: every device-side launch of this file is removed

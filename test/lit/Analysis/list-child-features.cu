// What each child uses: barriers, warp primitives, further launches,
// recursion, and which dimensions of the built-ins it reads.
// RUN: %launchopt --list-launches %s | %FileCheck %s

__global__ void leaf(int *d) { d[blockIdx.z * gridDim.y + threadIdx.x] = 0; }

__global__ void sync_child(int *d) {
  d[threadIdx.x] = __shfl_sync(0xffffffffu, d[threadIdx.x], 0);
  __syncthreads();
  leaf<<<1, 32>>>(d);
}

__global__ void rec(int *d, int depth) {
  if (depth > 0)
    rec<<<1, 1>>>(d, depth - 1);
}

__global__ void parent(int *d) {
  sync_child<<<1, 32>>>(d);
  rec<<<1, 1, 0, cudaStreamFireAndForget>>>(d, 3);
}

// CHECK: 'sync_child' launches 'leaf'
// CHECK: child uses: index variables blockIdx.z, gridDim.y, threadIdx.x; barriers none; shared memory no; warp primitives none; launches none
// CHECK: 'rec' launches 'rec'
// CHECK: context: not in loop, in branch, recursive
// CHECK: 'parent' launches 'sync_child'
// CHECK: child uses: index variables threadIdx.x; barriers __syncthreads; shared memory no; warp primitives __shfl_sync; launches leaf
// CHECK: 'parent' launches 'rec'
// CHECK-NEXT: grid: 1
// CHECK: stream: cudaStreamFireAndForget (fire-and-forget)
// 'rec' cannot reach 'parent' again, so this launch is not marked recursive.
// CHECK: context: not in loop, not in branch{{$}}
// CHECK: launches rec

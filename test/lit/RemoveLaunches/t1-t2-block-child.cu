// A child whose threads work together (barriers, shared memory, warp
// primitives) in the persistent grid: a block of the grid runs each child
// block as one, thread t as child thread t, when every recorded launch has
// the parent's constant block shape and no more dynamic shared memory, and
// no thread returns without the rest of its block. The original kernel keeps
// the launches (no thread can run such a child alone), and a full queue
// stops the grid with the reason instead of a thread running it.
// RUN: %launchopt --remove-launches=T1 %s -o %t1.cu --report %t1.txt 2> %t1.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t1.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REPORT < %t1.txt
// RUN: %nvcc-compile %t1.cu
// auto takes the persistent grid for such a child rather than T3, one child
// block at a time.
// RUN: %launchopt --remove-launches=auto %s -o %ta.cu --report %ta.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=AUTO < %ta.txt
// RUN: grep -v '^// [A-Z0-9-]*:' %ta.cu | %FileCheck %s --check-prefix=AUTO-CODE
// RUN: %nvcc-compile %ta.cu
#include <cuda_runtime.h>

struct Tile {
  int x0, y0, size;
};
struct Tiles {
  Tile tile[4];
};

__device__ int borderSum(const int *image, int width, Tile t) {
  __shared__ int sum;
  if (threadIdx.x == 0 && threadIdx.y == 0)
    sum = 0;
  __syncthreads();
  atomicAdd(&sum, image[(t.y0 + threadIdx.y) * width + t.x0 + threadIdx.x]);
  __syncthreads();
  return sum;
}

// Launches itself with its own block shape; the whole block returns early
// (its tile is the block's).
__global__ void refine(const int *image, int width, int *out, Tiles tiles, int depth) {
  const Tile t = tiles.tile[blockIdx.x];
  if (t.size <= 16 || depth > 4)
    return;
  int sum = borderSum(image, width, t);
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    out[t.y0 * width + t.x0] = sum;
    Tiles next;
    for (int q = 0; q < 4; ++q)
      next.tile[q] = {t.x0 + (q & 1) * t.size / 2, t.y0 + (q >> 1) * t.size / 2, t.size / 2};
    if (sum % 3 != 0)
      refine<<<4, dim3(16, 16)>>>(image, width, out, next, depth + 1);
  }
}

// Its launch of itself has another block shape than the host's.
__global__ void narrow(int *out, int n) {
  __shared__ int v[64];
  v[threadIdx.x] = n;
  __syncthreads();
  out[threadIdx.x] += v[63 - threadIdx.x];
  if (threadIdx.x == 0 && n > 1)
    narrow<<<1, 32>>>(out, n / 2);
}

// One thread may leave before the others meet at the barrier.
__global__ void ragged(int *out, int n) {
  __shared__ int v[32];
  if (threadIdx.x >= n)
    return;
  v[threadIdx.x] = n;
  __syncthreads();
  out[threadIdx.x] = v[(threadIdx.x + 1) % 32];
  if (threadIdx.x == 0 && n > 1)
    ragged<<<1, 32>>>(out + 32, n - 1);
}

// A host-launched parent whose child synchronizes: the grid's blocks (the
// parent's, 64 threads) run the child's blocks of 64.
__global__ void scanRows(int *rows, int width) {
  __shared__ int row[64];
  row[threadIdx.x] = rows[blockIdx.x * width + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    for (int i = 1; i < 64; ++i)
      row[i] += row[i - 1];
  __syncthreads();
  rows[blockIdx.x * width + threadIdx.x] = row[threadIdx.x];
}
__global__ void scanAll(int *rows, const int *counts, int width) {
  int n = counts[blockIdx.x * blockDim.x + threadIdx.x];
  if (n > 0)
    scanRows<<<n, 64>>>(rows + 4096 * threadIdx.x, width);
}

void run(const int *image, int width, int *out, Tiles root, int *rows, const int *counts) {
  refine<<<1, dim3(16, 16)>>>(image, width, out, root, 0);
  narrow<<<1, 64>>>(out, 64);
  ragged<<<1, 32>>>(out, 32);
  scanAll<<<2, 64>>>(rows, counts, 64);
}

// The kernel keeps its launch; the copies record it for a block of the grid.
// CHECK-LABEL: __global__ void refine(
// CHECK: refine<<<4, dim3(16, 16)>>>(image, width, out, next, depth + 1);
// CHECK: static __device__ void __lo_pithread_refine_refine(
// CHECK: __lo_sh_borderSum(
// CHECK: launchopt::persistent::recordBlocks(__lo_pq_refine, __lo_r{{[0-9]+}});
// CHECK: static __device__ void __lo_pblock_refine(
// CHECK: launchopt::persistent::recordBlocks(__lo_pq_refine, __lo_r{{[0-9]+}});
// CHECK: launchopt::persistent::runRecorded<true, true>(__lo_pq_refine, launchopt::persistent::ChildBlocks,
// The parent of a synchronizing child keeps its launch too.
// CHECK-LABEL: __global__ void scanAll(
// CHECK: scanRows<<<n, 64>>>(rows + 4096 * threadIdx.x, width);
// CHECK: launchopt::persistent::recordBlocks(__lo_pq_scanAll, __lo_r{{[0-9]+}});
// CHECK: launchopt::persistent::runRecorded<false, true>(__lo_pq_scanAll, launchopt::persistent::ChildBlocks,
// CHECK-LABEL: void run(
// CHECK: launchopt::persistent::launch<true, true>(__lo_persistent_refine, refine, __lo_pq_refine, launchopt::persistent::AlwaysSpread, 1, dim3(16, 16), 0, 0,
// CHECK: narrow<<<1, 64>>>(out, 64);
// CHECK: ragged<<<1, 32>>>(out, 32);
// CHECK: launchopt::persistent::launch<false, true>(__lo_persistent_scanAll, scanAll, __lo_pq_scanAll, launchopt::persistent::Always, 2, 64, 0, 0,

// REPORT: ('refine' -> 'refine'): remove-launches: applied
// REPORT-NEXT: child-blocks: the child's threads work together: a block of the persistent grid runs each child block as one, with the same threads; the kernel as written keeps the launch
// REPORT: ('narrow' -> 'narrow'): remove-launches: not applied: the child's threads work together, so a block of the persistent grid (64 x 1 x 1 threads, the parent's) runs a child block only of the same shape; the launch at line 61 has blocks of 32 x 1 x 1 threads
// REPORT: ('ragged' -> 'ragged'): remove-launches: not applied: a thread of the child may return at line 68 without the rest of its block
// REPORT: ('scanAll' -> 'scanRows'): remove-launches: applied
// REPORT-NEXT: child-blocks: {{.*}}; the original parent keeps the launch
// AUTO: ('scanAll' -> 'scanRows'): remove-launches: applied
// AUTO-NEXT: auto: megakernel {{.*}}: the child's threads work together: any block of the persistent grid runs its blocks, one at a time (T1), rather than the launching block (T3)

// AUTO-CODE: launchopt::persistent::runRecorded<false, true>(__lo_pq_scanAll, launchopt::persistent::ChildBlocks,

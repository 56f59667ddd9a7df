// A launch that asks for dynamic shared memory its child never reads (no
// `extern __shared__` in the child or what it calls; the size was copied
// from a sample, or the child moved to static arrays): the persistent grid
// (T1) and the parent block (T3) need no room for it, and the launch is
// removed, its record asking for none (the runtime stops a record that asks
// for more than the grid's blocks have). A child that reads it through an
// `extern __shared__` array in a helper still needs the room, and is refused
// as before.
// RUN: %launchopt --remove-launches=T1 %s -o %t-t1.cu --report %t-t1.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=T1 < %t-t1.txt
// RUN: %FileCheck %s --check-prefix=T1-RECORD < %t-t1.cu
// RUN: %nvcc-compile %t-t1.cu
// RUN: %launchopt --remove-launches=T3 %s -o %t-t3.cu --report %t-t3.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=T3 < %t-t3.txt
// RUN: %FileCheck %s --check-prefix=T3-RECORD < %t-t3.cu
// RUN: %nvcc-compile %t-t3.cu
#include <cuda_runtime.h>

// Counts points per quadrant of its node; thread 0 relaunches the kernel
// for the next node with the 16 bytes of a four-counter table it keeps in
// static shared memory.
__global__ void countQuadrants(const float2 *pts, const int *begin, const int *end, int *counts,
                               int node, int last) {
  __shared__ int local[4];
  if (threadIdx.x < 4)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = begin[node] + threadIdx.x; i < end[node]; i += blockDim.x)
    atomicAdd(&local[(pts[i].x > 0.5f) + 2 * (pts[i].y > 0.5f)], 1);
  __syncthreads();
  if (threadIdx.x < 4)
    counts[4 * node + threadIdx.x] = local[threadIdx.x];
  if (threadIdx.x == 0 && node < last)
    countQuadrants<<<1, blockDim.x, 4 * sizeof(int)>>>(pts, begin, end, counts, node + 1, last);
}

// One node per parent block, its counts by a child block of the same size.
__global__ void countNode(const float2 *pts, int first, int last, int *counts) {
  __shared__ int local[4];
  if (threadIdx.x < 4)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = first + threadIdx.x; i < last; i += blockDim.x)
    atomicAdd(&local[(pts[i].x > 0.5f) + 2 * (pts[i].y > 0.5f)], 1);
  __syncthreads();
  if (threadIdx.x < 4)
    counts[threadIdx.x] = local[threadIdx.x];
}

__global__ void countNodes(const float2 *pts, const int *begin, const int *end, int *counts) {
  if (threadIdx.x == 0)
    countNode<<<1, blockDim.x, 4 * sizeof(int)>>>(pts, begin[blockIdx.x], end[blockIdx.x],
                                                  counts + 4 * blockIdx.x);
}

__device__ int *scratch() {
  extern __shared__ int table[];
  return table;
}

__global__ void tally(const int *in, int *out, int n) {
  int *t = scratch();
  t[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : 0;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int i = 0; i < blockDim.x; ++i)
      out[0] += t[i];
}

__global__ void tallyAll(const int *const *ins, int **outs, const int *lens, int m) {
  if (threadIdx.x == 0 && blockIdx.x < m)
    tally<<<1, 128, 128 * sizeof(int)>>>(ins[blockIdx.x], outs[blockIdx.x], lens[blockIdx.x]);
}

void run(const float2 *pts, const int *begin, const int *end, int *counts, int nodes,
         const int *const *ins, int **outs, const int *lens, int m) {
  countQuadrants<<<1, 128>>>(pts, begin, end, counts, 0, nodes - 1);
  tallyAll<<<m, 128>>>(ins, outs, lens, m);
  countNodes<<<nodes, 128>>>(pts, begin, end, counts);
}

// T1: ('countQuadrants' -> 'countQuadrants'): remove-launches: applied
// T1: ('tallyAll' -> 'tally'): remove-launches: not applied: {{.*}}dynamic shared memory (512 bytes) than the parent's launches give the persistent grid's blocks (0 bytes)
// T3: ('countNodes' -> 'countNode'): remove-launches: applied
// T3: ('tallyAll' -> 'tally'): remove-launches: not applied: the child's dynamic shared memory (512 bytes) may be larger than the parent block has (0 bytes)
// T1-RECORD: const __lo_grec_countQuadrants __lo_r1 = {{[{][{]}}__lo_grid1, __lo_block1, (unsigned)(0)}
// T3-RECORD: const __lo_rec_countNode __lo_r{{[0-9]+}} = {{[{][{]}}__lo_grid{{[0-9]+}}, __lo_block{{[0-9]+}}, (unsigned)(0)}

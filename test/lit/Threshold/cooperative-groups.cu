// Cooperative groups in thresholded children: the grid's and block's index
// queries are computed in the serial copy from the shadowed indices; a
// block sync is a barrier like __syncthreads.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void ranks(unsigned long long *d, unsigned long long n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<8, cg::thread_block> tile = cg::tiled_partition<8>(cg::this_thread_block());
  unsigned long long i = grid.thread_rank();
  if (i < n)
    d[i] = grid.size() + tile.thread_rank() + tile.meta_group_rank();
}

__global__ void synced(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cg::this_thread_block().sync();
  if (i < n)
    d[i] = 0;
}

__global__ void parent(unsigned long long *a, int *b, const int *sizes) {
  int n = sizes[threadIdx.x];
  ranks<<<(n + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(a, n);
  synced<<<(n + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(b, n);
}

// CHECK-LABEL: static __device__ void __lo_thread_ranks(
// CHECK: unsigned long long i = ((unsigned long long)(((unsigned long long)(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y * blockDim.z) + ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)));
// CHECK: d[i] = ((unsigned long long)(((unsigned long long)gridDim.x * (gridDim.y * gridDim.z)) * (blockDim.x * blockDim.y * blockDim.z))) + ((unsigned int)(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 8)) + ((unsigned int)(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / 8));

// REMARK: cooperative-groups.cu:28:3: remark: threshold applied to launch of 'ranks'
// REMARK: cooperative-groups.cu:29:3: remark: not thresholded: child uses cooperative_groups sync

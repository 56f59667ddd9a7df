// A child that reads its indices through cooperative groups and
// synchronizes its block with them: the queries are built-in reads, replaced
// in the coarsened copy by what the library computes over the shadowed
// blockIdx and gridDim; block.sync() is a barrier like __syncthreads.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void child(int *d, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = block.group_index().x * block.size() + block.thread_rank();
  if (i < n)
    d[i] += 1;
  block.sync();
  if (i < n)
    d[i] *= (int)cg::this_grid().block_rank();
}

__global__ void early(int *d, int n) {
  if (cg::this_grid().thread_rank() >= n)
    return;
  cg::sync(cg::this_thread_block());
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
  early<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK-LABEL: __global__ void __lo_coarse_child(
// CHECK: const uint3 blockIdx = make_uint3(__lo_bx, __lo_by, __lo_bz);
// CHECK: int i = ((dim3)dim3(blockIdx.x, blockIdx.y, blockIdx.z)).x * ((unsigned int)(blockDim.x * blockDim.y * blockDim.z)) + ((unsigned int)((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x));
// CHECK: block.sync();
// CHECK: d[i] *= (int)((unsigned long long)((unsigned long long)(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x));

// REMARK: cooperative-groups.cu:30:3: remark: coarsen applied to launch of 'child'
// REMARK: cooperative-groups.cu:31:3: remark: not coarsened: child returns early and uses cooperative_groups sync

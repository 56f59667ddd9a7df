// A child that synchronizes its block through cooperative groups is
// aggregated as one that calls __syncthreads: whole child blocks stay
// together, and its index queries read the aggregated kernel's shadowed
// indices.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void child(int *d, int n) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = block.group_index().x * block.num_threads() + block.thread_rank();
  if (i < n)
    d[i] += 1;
  block.sync();
}

__global__ void parent(int *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(d, n);
}

// CHECK: unsigned i = ((dim3)dim3(blockIdx.x, blockIdx.y, blockIdx.z)).x * ((unsigned int)(blockDim.x * blockDim.y * blockDim.z)) + ((unsigned int)((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x));
// CHECK: block.sync();

// REMARK: cooperative-groups-sync.cu:22:3: remark: aggregate applied to launch of 'child'

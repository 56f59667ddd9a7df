// The common quadtree shape: a template kernel whose block is its non-type
// parameter, and a launch under a cooperative-groups block's
// `thread_rank() == 0`. --auto's model counts one launch per parent block
// (the rank is the linear thread index) and reads the child block from the
// host launch's template argument (4 blocks of 128 threads), and so takes
// the persistent recursion.
// RUN: %launchopt --auto %s -o %t.cu --report %t.txt 2> /dev/null
// RUN: %FileCheck %s < %t.txt
// RUN: %nvcc-compile %t.cu
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <int Threads> __global__ void split(float *d, int n, int depth) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[Threads];
  s[block.thread_rank()] = d[blockIdx.x * Threads + block.thread_rank()];
  block.sync();
  d[blockIdx.x * Threads + block.thread_rank()] = s[Threads - 1 - block.thread_rank()];
  if (block.thread_rank() == 0 && depth > 0)
    split<Threads><<<4, Threads>>>(d + blockIdx.x * n, n / 4, depth - 1);
}

void run(float *d, int n) { split<128><<<1, 128>>>(d, n, 5); }

// CHECK: launch #1 at {{.*}}cooperative-groups-rank-template-block.cu:20:5 ('split' -> 'split'): auto: applied
// CHECK: child-threads: 512
// CHECK: choice: R:auto
// CHECK: launches: one per parent block

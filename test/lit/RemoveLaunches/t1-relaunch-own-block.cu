// A single-block kernel that relaunches itself with its own block
// (`blockDim.x`): every block that records the launch has the persistent
// grid's shape, the host launch's constant one, so T1 runs the child blocks
// with the same threads. With two-dimensional blocks `blockDim.x` is not the
// launching block's shape, and T1 says so; `dim3(blockDim.x, blockDim.y)`
// (written in the launch or in a local the launch names) is, where the
// blocks are one layer deep, and is refused where they are not.
// RUN: %launchopt --remove-launches=T1 %s -o %t.cu --report %t.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=APPLIED < %t.txt
// RUN: %nvcc-compile %t.cu
// RUN: sed -e 's/wavefront<<<1, 512>>>/wavefront<<<1, dim3(256, 2)>>>/' %s > %t.2d.cu
// RUN: %launchopt --remove-launches=T1 %t.2d.cu -o %t.2d.out.cu --report %t.2d.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=TWO-D < %t.2d.txt
// RUN: sed -e 's/wavefront<<<1, 512>>>/wavefront<<<1, dim3(256, 2)>>>/' \
// RUN:     -e 's/wavefront<<<1, blockDim.x>>>(\(.*\));/{ dim3 own(blockDim.x, blockDim.y); wavefront<<<1, own>>>(\1); }/' %s > %t.own.cu
// RUN: %launchopt --remove-launches=T1 %t.own.cu -o %t.own.out.cu --report %t.own.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=APPLIED < %t.own.txt
// RUN: %nvcc-compile %t.own.out.cu
// RUN: sed -e 's/wavefront<<<1, 512>>>/wavefront<<<1, dim3(256, 2)>>>/' \
// RUN:     -e 's/wavefront<<<1, blockDim.x>>>/wavefront<<<1, dim3(blockDim.x, blockDim.y)>>>/' %s > %t.written.cu
// RUN: %launchopt --remove-launches=T1 %t.written.cu -o %t.written.out.cu --report %t.written.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=APPLIED < %t.written.txt
// RUN: sed -e 's/wavefront<<<1, 512>>>/wavefront<<<1, dim3(128, 2, 2)>>>/' \
// RUN:     -e 's/wavefront<<<1, blockDim.x>>>/wavefront<<<1, dim3(blockDim.x, blockDim.y)>>>/' %s > %t.3d.cu
// RUN: %launchopt --remove-launches=T1 %t.3d.cu -o %t.3d.out.cu --report %t.3d.txt 2> /dev/null
// RUN: %FileCheck %s --check-prefix=TWO-D < %t.3d.txt
#include <climits>
#include <cuda_runtime.h>

__global__ void wavefront(int *dist, const int *row, const int *col, int n, int round) {
  __shared__ int changed;
  if (threadIdx.x == 0)
    changed = 0;
  __syncthreads();
  for (int v = threadIdx.x; v < n; v += blockDim.x)
    for (int e = row[v]; e < row[v + 1]; ++e)
      if (dist[v] != INT_MAX && dist[v] + 1 < dist[col[e]]) {
        atomicMin(&dist[col[e]], dist[v] + 1);
        changed = 1;
      }
  __syncthreads();
  if (threadIdx.x == 0 && changed && round < 64)
    wavefront<<<1, blockDim.x>>>(dist, row, col, n, round + 1);
}

void run(int *dist, const int *row, const int *col, int n) {
  wavefront<<<1, 512>>>(dist, row, col, n, 0);
}

// APPLIED: ('wavefront' -> 'wavefront'): remove-launches: applied
// APPLIED: version: T1 (CB* -> PB*)
// TWO-D: ('wavefront' -> 'wavefront'): remove-launches: not applied: {{.*}}runs a child block only of the same shape; the launch at line {{[0-9]+}} has a block shape that is not a constant

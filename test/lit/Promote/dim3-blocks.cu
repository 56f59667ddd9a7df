// A chain whose blocks are written as dim3: `dim3(256)` in the kernel's
// launch of itself, `dim3 block(256)` on the host. The block is the same for
// every thread and known at the kernel's start, and a guard on threadIdx.x
// alone leaves one thread per block, since every launch's block has one
// thread along y and z.
// RUN: %launchopt --promote=PA:8 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// A two-dimensional block needs the guard along y too.
// RUN: sed -e 's/dim3 block(256)/dim3 block(128, 2)/' %s > %t.2d.cu
// RUN: %launchopt --promote=PA:8 %t.2d.cu -o %t.2d.out.cu 2> %t.2d.remarks
// RUN: %FileCheck %s --check-prefix=TWO-D < %t.2d.remarks
#include <cuda_runtime.h>

__global__ void scanChunk(const int *in, int *out, int n, int offset, int carry) {
  __shared__ int sums[256];
  int i = offset + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < 256; d *= 2) {
    int add = threadIdx.x >= d ? sums[threadIdx.x - d] : 0;
    __syncthreads();
    sums[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n)
    out[i] = sums[threadIdx.x] + carry;
  if (threadIdx.x == 0 && offset + 256 < n)
    scanChunk<<<1, dim3(256)>>>(in, out, n, offset + 256, carry + sums[255]);
}

void scan(const int *in, int *out, int n) {
  dim3 block(256);
  scanChunk<<<1, block>>>(in, out, n, 0, 0);
}

// REMARK: dim3-blocks.cu:29:5: remark: promote applied to launch of 'scanChunk' (mode: PA, pool: 8)
// TWO-D: remark: not promoted: the launch may be reached by more than one thread of a block

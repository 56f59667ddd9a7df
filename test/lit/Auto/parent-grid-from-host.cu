// The parent grid the host launches, when the program writes it as a
// constant (here through a const local), is the one --auto prices: 3,000
// launches, one per parent block of 32 threads, where the nominal grid has
// 132. So many launches make a few aggregated grids the cheapest: multi-block
// scopes, which widen so that the grid makes at most
// LAUNCHOPT_MAX_GROUP_LAUNCHES (4) launches, below the host-launched grid's
// latency and the grid scope's tail relaunch; with the grid read from the
// input the nominal one is priced.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --auto %s --report=- -o /dev/null -- -DSEGMENTS=argc 2> /dev/null | %FileCheck %s --check-prefix=NOMINAL
// CHECK: ('sumSegments' -> 'segmentSum'): auto: applied
// CHECK: choice: C+A:multiblock:8
// CHECK: small child: 64 threads x 3000 launches: {{.*}} (4 aggregated launch(es)
// CHECK: parent: launched from the host (3000 blocks of 32)
// NOMINAL: small child: 64 threads x 132 launches
// NOMINAL: parent: launched from the host{{$}}
#include <cuda_runtime.h>
#ifndef SEGMENTS
#define SEGMENTS 3000
#endif

__global__ void segmentSum(const float *values, unsigned begin, unsigned length, float *sums,
                           unsigned slot) {
  __shared__ float partial[128];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < length ? values[begin + i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 64; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(&sums[slot], partial[0]);
}

__global__ void sumSegments(const float *values, const unsigned *offsets, float *sums) {
  if (threadIdx.x != 0)
    return;
  unsigned begin = offsets[blockIdx.x], length = offsets[blockIdx.x + 1] - begin;
  if (length)
    segmentSum<<<(length + 127) / 128, 128>>>(values, begin, length, sums, blockIdx.x);
}

int main(int argc, char **) {
  const unsigned segments = SEGMENTS;
  float *values, *sums;
  unsigned *offsets;
  cudaMalloc(&values, 1 << 20);
  cudaMalloc(&sums, segments * sizeof(float));
  cudaMalloc(&offsets, (segments + 1) * sizeof(unsigned));
  sumSegments<<<segments, 32>>>(values, offsets, sums);
  cudaDeviceSynchronize();
  return 0;
}

// Every launch is removed, but the parent still allocates with device-side
// cudaMalloc, a device runtime call: the note says the output still needs
// -rdc=true -lcudadevrt, and cudaGetLastError stays as written.
// RUN: %launchopt --remove-launches=T4 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: grep -c 'cudaGetLastError() != cudaSuccess' %t.cu
// RUN: %nvcc-compile %t.cu
#include <cuda_runtime.h>

__global__ void fill(int *out) { out[threadIdx.x] = 7; }

__global__ void parent(int **outs, int *failed) {
  int *p = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&p), 32 * sizeof(int)) != cudaSuccess)
    return;
  outs[threadIdx.x] = p;
  fill<<<1, 32>>>(p);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(failed, 1);
}

// CHECK: remove-launches: every device-side launch of this file is removed, but device code still calls the device runtime (cudaMalloc at line 14): build with -rdc=true -lcudadevrt

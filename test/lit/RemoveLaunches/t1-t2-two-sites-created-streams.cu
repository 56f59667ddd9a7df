// A parent whose launches are all of one child, each into a stream it
// creates for them (as codes write a pair of non-blocking streams per
// thread): one persistent twin records every launch, and in the twin's copy
// the streams are neither created nor destroyed (a call that returns
// cudaSuccess), since only
// the recorded launches used them. The original parent, for a device
// without cooperative launch, keeps its streams.
// RUN: %launchopt --remove-launches=T1 %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
#include <cuda_runtime.h>

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i;
}

__global__ void fillPairs(int **outs, const int *sizes) {
  int n = sizes[threadIdx.x];
  cudaStream_t first, second;
  cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking);
  fill<<<(n + 31) / 32, 32, 0, first>>>(outs[2 * threadIdx.x], n);
  fill<<<(n + 31) / 32, 32, 0, second>>>(outs[2 * threadIdx.x + 1], n);
  cudaStreamDestroy(first);
  cudaStreamDestroy(second);
}

void run(int **outs, const int *sizes) { fillPairs<<<1, 64>>>(outs, sizes); }

// REMARK: :[[#@LINE-8]]:3: remark: remove-launches applied to launch of 'fill' (function: __lo_persistent_fillPairs,{{.*}}version: T1
// REMARK: :[[#@LINE-8]]:3: remark: remove-launches applied to launch of 'fill' (function: __lo_persistent_fillPairs,{{.*}}version: T1

// The original keeps its streams.
// CHECK-LABEL: __global__ void fillPairs(
// CHECK: cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking);
// CHECK: cudaStreamDestroy(second);
// One twin records both launches.
// CHECK: __device__ launchopt::persistent::Queue<__lo_grec_fill, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_fillPairs;
// CHECK-NOT: __lo_pq_fillPairs;
// CHECK: static __device__ void __lo_pblock_fillPairs(
// CHECK-NOT: cudaStream{{Create|Destroy}}
// CHECK: launchopt::persistent::streamUnused();
// CHECK-NEXT: launchopt::persistent::streamUnused();
// CHECK: launchopt::persistent::record(__lo_pq_fillPairs, __lo_r1)
// CHECK: launchopt::persistent::record(__lo_pq_fillPairs, __lo_r2)
// CHECK: launchopt::persistent::streamUnused();
// CHECK-NEXT: launchopt::persistent::streamUnused();
// CHECK: __global__ void __lo_persistent_fillPairs(
// CHECK-NOT: __global__ void __lo_persistent_fillPairs(
// CHECK: launchopt::persistent::launch(__lo_persistent_fillPairs, fillPairs, __lo_pq_fillPairs, launchopt::persistent::Always,

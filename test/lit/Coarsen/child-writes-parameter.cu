// A child that writes one of its parameters keeps its body in a per-block
// function: inside the coarsening loop, the next original block would see the
// value the previous one left instead of the launch's argument.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  d += blockIdx.x * blockDim.x;
  if (threadIdx.x < n)
    d[threadIdx.x] = 1.0f;
}

// CHECK-LABEL: static __device__ void __lo_block_child(float *d, int n, const uint3 __lo_blockIdx,
// CHECK: d += blockIdx.x * blockDim.x;
// CHECK-LABEL: __global__ void __lo_coarse_child(float *d, int n, const dim3 __lo_originalGrid)
// CHECK: __lo_block_child(d, n, make_uint3(__lo_bx, __lo_by, __lo_bz), threadIdx,
// CHECK-NEXT: blockDim, __lo_originalGrid);

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<4, 128>>>(d, n);
}

// REMARK: child-writes-parameter.cu:[[@LINE-3]]:3: remark: coarsen applied to launch of 'child'

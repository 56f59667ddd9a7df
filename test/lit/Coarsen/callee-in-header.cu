// Helpers in an included header read the built-ins: the coarsened copy calls
// their shadow copies, written after the #include; then aggregation of the
// coarsened child finds those copies already there and adds none.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks -- -I%S/../Threshold/Inputs
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t.cu
// RUN: %launchopt --coarsen --aggregate=grid %s -o %t2.cu 2> %t2.remarks -- -I%S/../Threshold/Inputs
// RUN: grep -c 'launchopt: .[a-zA-Z]*. for copied kernel bodies' %t2.cu | %FileCheck %s --check-prefix=ONCE
// RUN: %nvcc-compile -I%S/../Threshold/Inputs %t2.cu
#include "worklist-helpers.cuh"

__global__ void child(unsigned *out, unsigned n) {
  unsigned i = graph::globalId();
  if (i < n)
    out[i] = graph::offset(i);
}

__global__ void parent(unsigned *out, const unsigned *sizes) {
  unsigned n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(out, n);
}

// CHECK: #include "worklist-helpers.cuh"
// CHECK: static __device__ unsigned __lo_sh_globalId(
// CHECK: __device__ inline unsigned __lo_sh_offset(
// CHECK: __device__ unsigned __lo_sh_rank(
// CHECK-LABEL: __global__ void __lo_coarse_child(
// CHECK: unsigned i = graph::__lo_sh_globalId(blockIdx, threadIdx, blockDim, gridDim);

// REMARK: callee-in-header.cu:21:3: remark: coarsen applied to launch of 'child'
// ONCE: 3

// T -> C -> A with thread packing: the launch kept by thresholding is
// coarsened, and the coarsened child's threads (each runs LAUNCHOPT_CFACTOR
// original blocks' thread in turn, with no barrier) are packed densely into
// one grid per parent grid.
// RUN: %launchopt --threshold --coarsen --aggregate=threads %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

void host(float *d, const int *sizes) {
  parent<<<4, 256>>>(d, sizes);
}

// CHECK-LABEL: __global__ void __lo_agg___lo_coarse_child(
// CHECK: if (!launchopt::findPackedOriginal(__lo_launch, &__lo_t))
// CHECK: __lo_part___lo_coarse_child(__lo_u.d, __lo_a.n, __lo_a.__lo_originalGrid, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK: launchopt::reservePackedRecord(__lo_agg1,
// CHECK: __lo_serial_child(

// REMARK: threshold-coarsen-threads.cu:18:3: remark: threshold applied to launch of 'child'
// REMARK: threshold-coarsen-threads.cu:18:3: remark: coarsen applied to launch of 'child'
// REMARK: threshold-coarsen-threads.cu:18:3: remark: aggregate applied to launch of '__lo_coarse_child' (aggregated-kernel: __lo_agg___lo_coarse_child, granularity: grid, packing: threads, uniform-arguments: d)

// A child with a barrier and no early return is coarsened: every thread of
// the coarsened block runs the same original blocks, so all reach each barrier.
// Shared memory is reused by the next original block only after every thread
// has finished the previous one.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void reverse(float *d, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? d[i] : 0.0f;
  __syncthreads();
  if (i < n)
    d[i] = tile[blockDim.x - 1 - threadIdx.x];
}

// CHECK-LABEL: __global__ void __lo_coarse_reverse(float *d, int n, const dim3 __lo_originalGrid)
// CHECK-NEXT: {
// CHECK-NEXT: for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
// CHECK-NEXT: for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
// CHECK-NEXT: for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x) {
// CHECK-NEXT: { // one original block
// CHECK: __shared__ float tile[128];
// CHECK: d[i] = tile[blockDim.x - 1 - threadIdx.x];
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: }
// CHECK-NEXT: }

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  reverse<<<(n + 127) / 128, 128>>>(d, n);
}

// CHECK: __lo_coarse_reverse<<<__lo_coarse1, 128>>>(d, n, __lo_cgrid1);

// REMARK: syncthreads-no-early-return.cu:35:3: remark: coarsen applied to launch of 'reverse'

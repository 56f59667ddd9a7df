// A 1D child: each coarsened block runs the original blocks blockIdx.x,
// blockIdx.x + gridDim.x, ... of the original grid; the launch divides grid.x by
// LAUNCHOPT_CFACTOR and passes the original grid.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

// CHECK: #ifndef LAUNCHOPT_CFACTOR
// CHECK-NEXT: #define LAUNCHOPT_CFACTOR 4
// CHECK-NEXT: #endif

__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += gridDim.x;
}

// The body has no return and writes no parameter, so it sits in the loop; only
// blockIdx and gridDim are shadowed.
// CHECK-NOT: __lo_block_child
// CHECK-LABEL: __global__ void __lo_coarse_child(float *d, int n, const dim3 __lo_originalGrid)
// CHECK-NEXT: {
// CHECK-NEXT: for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
// CHECK-NEXT: for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
// CHECK-NEXT: for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x) {
// CHECK-NEXT: { // one original block
// CHECK-NEXT: const uint3 blockIdx = make_uint3(__lo_bx, __lo_by, __lo_bz);
// CHECK-NEXT: const dim3 gridDim = __lo_originalGrid;
// CHECK-NEXT: (void)blockIdx; (void)gridDim;
// CHECK-NEXT: {
// CHECK-NEXT: int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT: if (i < n)
// CHECK-NEXT: d[i] += gridDim.x;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 127) / 128, 128>>>(d, n);
}

// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK-NEXT: int n = sizes[threadIdx.x];
// CHECK-NEXT: { // launchopt: coarsened launch of 'child'
// CHECK-NEXT: const dim3 __lo_cgrid1 = (n + 127) / 128;
// CHECK-NEXT: const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
// CHECK-NEXT: __lo_coarse_child<<<__lo_coarse1, 128>>>(d, n, __lo_cgrid1);
// CHECK-NEXT: }
// CHECK-NEXT: }

// REMARK: child-1d.cu:42:3: remark: coarsen applied to launch of 'child' (coarsened-kernel: __lo_coarse_child, factor: LAUNCHOPT_CFACTOR (default 4), loop-body: inline (the child{{.*}})

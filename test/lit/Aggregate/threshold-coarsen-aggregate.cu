// T -> C -> A: the launch kept by thresholding is coarsened, and the launch
// of the coarsened child is aggregated; the serial path stays as it was.
// RUN: %launchopt --threshold --coarsen --aggregate=block %s -o %t.cu 2> %t.remarks
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

// CHECK: #define LAUNCHOPT_CFACTOR 4
// CHECK: #define LAUNCHOPT_THRESHOLD 256
// CHECK-LABEL: struct __lo_uargs___lo_coarse_child {
// CHECK-NEXT: float *d;
// CHECK-LABEL: struct __lo_args___lo_coarse_child {
// CHECK-NEXT: int n;
// CHECK-NEXT: const dim3 __lo_originalGrid;
// CHECK-LABEL: __global__ void __lo_agg___lo_coarse_child(
// CHECK: __lo_part___lo_coarse_child(__lo_u.d, __lo_a.n, __lo_a.__lo_originalGrid, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: { // launchopt: coarsened launch of 'child'
// CHECK: { // launchopt: aggregated launch of '__lo_coarse_child'
// CHECK: ::new (__lo_record{{[0-9]+}}) __lo_args___lo_coarse_child(n, __lo_cgrid1);
// CHECK-NEXT: if (__lo_uniform{{[0-9]+}})
// CHECK-NEXT: ::new (__lo_uniform{{[0-9]+}}) __lo_uargs___lo_coarse_child(d);
// CHECK: __lo_coarse_child<<<__lo_agrid{{[0-9]+}}, __lo_ablock{{[0-9]+}}, __lo_dshared{{[0-9]+}}, __lo_stream>>>(
// CHECK: else
// CHECK-NEXT: __lo_serial_child(d, n, __lo_grid1, __lo_block1);
// CHECK-LABEL: __global__ void parent(float *d, const int *sizes) {
// CHECK: __lo_launch___lo_coarse_child(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
// CHECK-LABEL: void host(float *d, const int *sizes) {
// CHECK-NEXT: { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = 4, __lo_hblock = 256; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); parent<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(d, sizes); }

// REMARK: remark: threshold applied to launch of 'child'
// REMARK: remark: coarsen applied to launch of 'child'
// REMARK: remark: aggregate applied to launch of '__lo_coarse_child'

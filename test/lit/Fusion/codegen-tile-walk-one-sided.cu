// Code generation through shared memory when the consumer reads the tiles on
// one side only: divergence reads fx at (x - 1) and fy at (y - 1), so the
// walk of the 34 x 10 tiles visits the block's own 256 sites, one row below
// the block (33 sites, from x = -1) and one column left of it (8 sites): 297
// sites, not 340. The two producers have no barrier between them and share
// the walk; flux_x skips the row below the block (its fx is read at x - 1
// only) and flux_y the column left of it. (By default, producers read at so
// few neighbours are recomputed there instead: codegen-recompute-neighbours.cu.)
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/one-sided-tiles.json --recompute-neighbours=0 -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile %t.cu

__global__ void flux_x(const float *h, const float *u, float *fx, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  int c = j * nx + i;
  fx[c] = h[c] * u[c];
}
__global__ void flux_y(const float *h, const float *v, float *fy, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  int c = j * nx + i;
  fy[c] = h[c] * v[c];
}
__global__ void divergence(const float *fx, const float *fy, float *d, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  int c = j * nx + i;
  d[c] = (fx[c] - fx[c - 1]) + (fy[c] - fy[c - nx]);
}

void run(const float *h, const float *u, const float *v, float *fx, float *fy, float *d, int nx,
         int ny) {
  dim3 block(32, 8);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8);
  flux_x<<<grid, block>>>(h, u, fx, nx, ny);
  flux_y<<<grid, block>>>(h, v, fy, nx, ny);
  divergence<<<grid, block>>>(fx, fy, d, nx, ny);
}

// CHECK-LABEL: __global__ void __lo_fused_0(
// CHECK: // flux_x, flux_y over 1 halo layer(s) into shared memory: read at neighbours below.
// CHECK-NEXT: // Own sites first, then the ring layers read below (x -1 +0, y -1 +0).
// CHECK-NEXT: for (unsigned __lo__s = threadIdx.y * blockDim.x + threadIdx.x; __lo__s < 297u; __lo__s += blockDim.x * blockDim.y) {
// CHECK: } else if (__lo__s < 289u) { // rows below and above the block
// CHECK-NEXT: const unsigned __lo__r = __lo__s - 256u;
// CHECK-NEXT: __lo__x = __lo__r % 33u - 1u;
// CHECK-NEXT: __lo__y = __lo__r / 33u - 1u;
// CHECK-NEXT: } else { // columns left and right of the block
// CHECK-NEXT: const unsigned __lo__r = __lo__s - 289u;
// CHECK-NEXT: const unsigned __lo__k = __lo__r % 1u;
// CHECK-NEXT: __lo__x = __lo__k - 1u;
// CHECK-NEXT: __lo__y = __lo__r / 1u;
// CHECK-NEXT: }
// CHECK-NEXT: const unsigned __lo__t = (__lo__y + 1u) * 34u + __lo__x + 1u;
// CHECK-NEXT: __lo_set_fx[__lo__t] = 0;
// CHECK-NEXT: __lo_set_fy[__lo__t] = 0;
// CHECK-NEXT: if (((int)__lo__y >= 0) && blockIdx.x * blockDim.x + __lo__x < gridDim.x * blockDim.x && blockIdx.y * blockDim.y + __lo__y < gridDim.y * blockDim.y)
// CHECK-NEXT: __lo_body_flux_x_in_fused_0(
// CHECK-SAME: __lo__t, __lo__s < 256u, blockIdx, make_uint3(__lo__x, __lo__y, 0));
// CHECK-NEXT: if (((int)__lo__x >= 0) && blockIdx.x * blockDim.x + __lo__x < gridDim.x * blockDim.x && blockIdx.y * blockDim.y + __lo__y < gridDim.y * blockDim.y)
// CHECK-NEXT: __lo_body_flux_y_in_fused_0(
// CHECK-SAME: __lo__t, __lo__s < 256u, blockIdx, make_uint3(__lo__x, __lo__y, 0));
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: __lo_body_divergence_in_fused_0(

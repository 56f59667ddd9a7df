// Code generation when later members read a producer's results at few
// neighbour sites: divergence reads fx at (x - 1) and fy at (y - 1), so each
// thread runs flux_x at its own site and at (x - 1), flux_y at its own site
// and at (y - 1), into registers, with no shared-memory tile and no barrier;
// not at a neighbour beyond the grid's edge.
// Own sites also go to GMEM; a site the producer does not write (outside its
// guard) is read from GMEM, as in the unfused program.
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/one-sided-tiles.json -o %t.cu --report=%t.report 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc-compile %t.cu
// A limit of one neighbour still recomputes each producer (one each); a limit
// of zero falls back to the tile.
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/one-sided-tiles.json --recompute-neighbours=1 --report=%t.one.report -o /dev/null 2> /dev/null
// RUN: %FileCheck %s --check-prefix=REPORT < %t.one.report
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/one-sided-tiles.json --recompute-neighbours=0 --report=%t.none.report -o /dev/null 2> /dev/null
// RUN: %FileCheck %s --check-prefix=TILES < %t.none.report

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

// CHECK-LABEL: void __lo_body_flux_x_in_fused_0(const float *h, const float *u, float *fx, int nx, int ny, float &__lo_val_fx, bool &__lo_valset_fx, bool __lo_own, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
// CHECK: __lo_val_fx = h[c] * u[c], __lo_valset_fx = true, __lo_own ? (void)(fx[c] = __lo_val_fx) : (void)0;
// CHECK-LABEL: void __lo_body_divergence_in_fused_0(
// CHECK-SAME: float __lo_nb_fx_x0_y0, bool __lo_nbset_fx_x0_y0, float __lo_nb_fx_xm1_y0, bool __lo_nbset_fx_xm1_y0,
// CHECK: d[c] = ((__lo_nbset_fx_x0_y0 ? __lo_nb_fx_x0_y0 : fx[c]) - (__lo_nbset_fx_xm1_y0 ? __lo_nb_fx_xm1_y0 : fx[c - 1]))
// CHECK-SAME: ((__lo_nbset_fy_x0_y0 ? __lo_nb_fy_x0_y0 : fy[c]) - (__lo_nbset_fy_x0_ym1 ? __lo_nb_fy_x0_ym1 : fy[c - nx]));
// CHECK: // On chip: recomputed at neighbours: fx (halo 1) fy (halo 1).
// CHECK-NEXT: __global__ void __lo_fused_0(
// CHECK-NOT: __shared__
// CHECK: // flux_x at the thread's site, then recomputed at the neighbours read below: (-1, 0).
// CHECK-NEXT: __lo_body_flux_x_in_fused_0({{.*}}, __lo_nb_fx_x0_y0, __lo_nbset_fx_x0_y0, true, blockIdx, threadIdx);
// CHECK-NEXT: if (blockIdx.x * blockDim.x + threadIdx.x >= 1u)
// CHECK-NEXT: __lo_body_flux_x_in_fused_0({{.*}}, __lo_nb_fx_xm1_y0, __lo_nbset_fx_xm1_y0, false, blockIdx, make_uint3(threadIdx.x - 1u, threadIdx.y, threadIdx.z));
// CHECK-NEXT: // flux_y at the thread's site, then recomputed at the neighbours read below: (0, -1).
// CHECK-NEXT: __lo_body_flux_y_in_fused_0(
// CHECK-NEXT: if (blockIdx.y * blockDim.y + threadIdx.y >= 1u)
// CHECK-NEXT: __lo_body_flux_y_in_fused_0({{.*}}, false, blockIdx, make_uint3(threadIdx.x, threadIdx.y - 1u, threadIdx.z));
// CHECK-NOT: __syncthreads
// CHECK-NEXT: __lo_body_divergence_in_fused_0(
// CHECK-NEXT: }

// REPORT: launch 0 code generation: recomputed at neighbours: fx (halo 1) fy (halo 1)
// TILES: launch 0 code generation: shared-memory tiles: fx (halo 1) fy (halo 1)

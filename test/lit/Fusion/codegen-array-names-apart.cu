// The new kernel's array parameters have a prefix of their own: arrays named
// like the generated locals (`tile_x` beside the tile of `x`, `s` beside the
// step of the loop over halo layers) give distinct names, and the outputs
// compile.
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/names-apart.json -o %t.tile.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=TILE < %t.tile.cu
// RUN: %nvcc-compile %t.tile.cu
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/names-apart.json --on-chip=false -o %t.gmem.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=GMEM < %t.gmem.cu
// RUN: %nvcc-compile %t.gmem.cu

__global__ void smooth(const float *tile_x, float *x, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  int c = j * nx + i;
  x[c] = 0.5f * (tile_x[c + 1] + tile_x[c - 1]);
}
__global__ void difference(const float *x, float *s, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  int c = j * nx + i;
  s[c] = x[c + nx] - x[c - nx];
}

void run(const float *tile_x, float *x, float *s, int nx, int ny) {
  dim3 block(32, 8);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8);
  smooth<<<grid, block>>>(tile_x, x, nx, ny);
  difference<<<grid, block>>>(x, s, nx, ny);
}

// TILE: __global__ void __lo_fused_0(const float *__lo_arr_tile_x, float *__lo_arr_x, int __lo_m0_nx, int __lo_m0_ny, float *__lo_arr_s,
// TILE: __shared__ float __lo_tile_x[
// TILE: __lo_body_smooth_in_fused_0(__lo_arr_tile_x, __lo_arr_x, {{.*}}, __lo_tile_x,
// TILE: __lo_body_difference_in_fused_0(__lo_arr_x, __lo_arr_s,

// GMEM: __global__ void __lo_fused_0(const float *__lo_arr_tile_x, float *__lo_arr_x, int __lo_m0_nx, int __lo_m0_ny, float *__lo_arr_s,
// GMEM: for (unsigned __lo_s =
// GMEM: __lo_body_smooth_in_fused_0(__lo_arr_tile_x, __lo_arr_x,
// GMEM: __lo_body_difference_in_fused_0(__lo_arr_x, __lo_arr_s,

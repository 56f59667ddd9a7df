// Code generation through shared memory: a producer whose result the next
// body reads at neighbours (radius 1 in x and y) is computed over one halo
// layer into a __shared__ tile of (32 + 2) x (8 + 2) sites; the consumer
// reads its neighbours from the tile after the barrier.
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/tile.json --report=%t.report -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc-compile %t.cu

__global__ void gradient(const float *h, float *g, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  int c = j * nx + i;
  g[c] = h[c + 1] - h[c - 1];
}
__global__ void laplace(const float *g, float *l, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  int c = j * nx + i;
  l[c] = g[c - 1] + g[c + 1] + g[c - nx] + g[c + nx] - 4.0f * g[c];
}

void run(const float *h, float *g, float *l, int nx, int ny) {
  dim3 block(32, 8);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8);
  gradient<<<grid, block>>>(h, g, nx, ny);
  laplace<<<grid, block>>>(g, l, nx, ny);
}

// The producer stores into the tile; only its own sites reach GMEM.
// CHECK-LABEL: void __lo_body_gradient_in_fused_0(const float *h, float *g, int nx, int ny, float *__lo_tile_g, unsigned char *__lo_set_g, unsigned __lo_ts, bool __lo_own, const uint3
// CHECK: __lo_tile_g[__lo_ts] = h[c + 1] - h[c - 1], __lo_set_g[__lo_ts] = 1, __lo_own ? (void)(g[c] = __lo_tile_g[__lo_ts]) : (void)0;
// Neighbours come from the tile; a site the producer never writes from GMEM.
// CHECK-LABEL: void __lo_body_laplace_in_fused_0(
// CHECK: l[c] = (__lo_set_g[((int)threadIdx.y + 1) * 34 + (int)threadIdx.x] ? __lo_tile_g[((int)threadIdx.y + 1) * 34 + (int)threadIdx.x] : g[c - 1])
// CHECK-SAME: (__lo_set_g[((int)threadIdx.y) * 34 + (int)threadIdx.x + 1] ? __lo_tile_g[((int)threadIdx.y) * 34 + (int)threadIdx.x + 1] : g[c - nx])
// CHECK-SAME: (__lo_set_g[((int)threadIdx.y + 2) * 34 + (int)threadIdx.x + 1] ? __lo_tile_g[((int)threadIdx.y + 2) * 34 + (int)threadIdx.x + 1] : g[c + nx])
// CHECK: // Complex fusion of gradient+laplace (launchopt fuse).
// CHECK-NEXT: // On chip: shared-memory tiles: g (halo 1).
// CHECK-NEXT: __global__ void __lo_fused_0(
// CHECK-NEXT: __shared__ float __lo_tile_g[340];
// CHECK-NEXT: __shared__ unsigned char __lo_set_g[340];
// The walk of the 34 x 10 tile: each thread's own site first (256 of them),
// then the rows below and above the block (2 x 34), then the left and right
// columns (8 rows x 2): the consumer reads all four sides.
// CHECK-NEXT: // gradient over 1 halo layer(s) into shared memory: read at neighbours below.
// CHECK-NEXT: // Own sites first, then the ring layers read below (x -1 +1, y -1 +1).
// CHECK-NEXT: for (unsigned __lo__s = threadIdx.y * blockDim.x + threadIdx.x; __lo__s < 340u; __lo__s += blockDim.x * blockDim.y) {
// CHECK-NEXT: unsigned __lo__x, __lo__y;
// CHECK-NEXT: if (__lo__s < 256u) {
// CHECK-NEXT: __lo__x = __lo__s % 32u;
// CHECK-NEXT: __lo__y = __lo__s / 32u;
// CHECK-NEXT: } else if (__lo__s < 324u) { // rows below and above the block
// CHECK-NEXT: const unsigned __lo__r = __lo__s - 256u;
// CHECK-NEXT: __lo__x = __lo__r % 34u - 1u;
// CHECK-NEXT: __lo__y = __lo__r < 34u ? __lo__r / 34u - 1u : 8u + (__lo__r - 34u) / 34u;
// CHECK-NEXT: } else { // columns left and right of the block
// CHECK-NEXT: const unsigned __lo__r = __lo__s - 324u;
// CHECK-NEXT: const unsigned __lo__k = __lo__r % 2u;
// CHECK-NEXT: __lo__x = __lo__k < 1u ? __lo__k - 1u : 32u + __lo__k - 1u;
// CHECK-NEXT: __lo__y = __lo__r / 2u;
// CHECK-NEXT: }
// CHECK-NEXT: const unsigned __lo__t = (__lo__y + 1u) * 34u + __lo__x + 1u;
// CHECK-NEXT: __lo_set_g[__lo__t] = 0;
// CHECK-NEXT: if (blockIdx.x * blockDim.x + __lo__x < gridDim.x * blockDim.x && blockIdx.y * blockDim.y + __lo__y < gridDim.y * blockDim.y)
// CHECK-NEXT: __lo_body_gradient_in_fused_0(__lo_arr_h, __lo_arr_g, __lo_m0_nx, __lo_m0_ny, __lo_tile_g, __lo_set_g, __lo__t, __lo__s < 256u, blockIdx, make_uint3(__lo__x, __lo__y, 0));
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: __lo_body_laplace_in_fused_0(__lo_arr_g, __lo_arr_l, __lo_m1_nx, __lo_m1_ny, __lo_tile_g, __lo_set_g, blockIdx, threadIdx);
// CHECK-LABEL: void run(
// CHECK: __lo_fused_0<<<grid, block>>>(h, g, nx, ny, l, nx, ny);

// REPORT: launch 0 code generation: shared-memory tiles: g (halo 1)

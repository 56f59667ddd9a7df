// The GMEM path stays where no tile can be laid out: here the block is a
// parameter of the host function, so its shape is unknown. The producer then
// writes its halo sites to GMEM too and the consumer reads them back there.
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

void run(const float *h, float *g, float *l, int nx, int ny, dim3 grid, dim3 block) {
  gradient<<<grid, block>>>(h, g, nx, ny);
  laplace<<<grid, block>>>(g, l, nx, ny);
}

// CHECK-NOT: __shared__
// CHECK: // On chip: global memory: g (the block is not a constant two-dimensional shape).
// CHECK: // gradient over 1 halo layer(s): its results are read at neighbours below.
// CHECK: __lo_body_gradient(__lo_h, __lo_g, __lo_m0_nx, __lo_m0_ny, blockIdx, make_uint3(
// CHECK: __syncthreads();
// CHECK-NEXT: __lo_body_laplace(__lo_g, __lo_l, __lo_m1_nx, __lo_m1_ny, blockIdx, threadIdx);

// REPORT: launch 0 code generation: global memory: g (the block is not a constant two-dimensional shape)

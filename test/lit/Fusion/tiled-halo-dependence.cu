// Two tiled shared-memory kernels (16 x 16 tile behind __syncthreads, index
// `cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx`, neighbours from
// the tile or from global memory at its edge), the second reading the
// first's result at its south and east neighbours. Each tile only caches an
// array the kernel reads, so the read sets are the stencil's (J and C at 0,
// +1, +cols: halo 1), the kernels count as barrier-free, and they fuse: the
// producer runs again at the two neighbours in registers, its body copy
// reading J where it read the tile, with no tile and no barrier; a neighbour
// beyond the grid is not run. (The plan is given: the projection prices the
// producer's division three times per site and declines the fusion.)
// RUN: %launchopt fuse %s --function=main --use-plan=%S/Inputs/coefficient-diffuse.json --write-problem=%t.json -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %launchopt fuse %s --function=main -o /dev/null 2>&1 | %FileCheck %s --check-prefix=DECLINED
// RUN: %FileCheck %s --check-prefix=PROBLEM < %t.json
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile %t.cu
// A block of 16 x 8 leaves half of each tile unstored: the barrier stays, and
// so do the launches.
// RUN: %launchopt fuse %s --function=main -o /dev/null -- -DBLOCK_Y=8 2>&1 | %FileCheck %s --check-prefix=HALF

// REMARK: tiled-halo-dependence.cu:[[@LINE+66]]:3: remark: fuse applied to launch of 'coefficient'
// REMARK: tiled-halo-dependence.cu:[[@LINE+66]]:3: remark: fuse applied to launch of 'diffuse'
// DECLINED: remark: not fused: not fused with 'diffuse': projected {{[0-9.]+}} us together, not below {{[0-9.]+}} us apart (bound by instruction issue, {{[0-9.]+}} us: a producer run again at neighbour sites repeats its instructions)
// HALF: remark: not fused: not fused with 'diffuse': 'coefficient' synchronises its block (__syncthreads): its body cannot be run again at the neighbours' sites that a later member reads

// PROBLEM-NOT: "barrier": true
// PROBLEM: "name": "coefficient",
// PROBLEM: "array": "J",
// PROBLEM-NEXT: "halo_radius": 1,
// PROBLEM-NEXT: "thread_load": 3
// PROBLEM: "name": "diffuse",
// PROBLEM: "array": "C",
// PROBLEM-NEXT: "halo_radius": 1,
// PROBLEM-NEXT: "thread_load": 3

// CHECK-LABEL: {{^}}static __device__ __forceinline__ void __lo_body_coefficient_in_fused_0(
// CHECK-NOT: __shared__
// CHECK-NOT: __syncthreads
// CHECK: {{^}}  float centre = J[index];
// CHECK-NEXT: float south = ty < BLOCK_SIZE - 1 ? J[index + cols] : row < rows - 1 ? J[index + cols] : centre;
// CHECK-NEXT: float east = tx < BLOCK_SIZE - 1 ? J[index + 1] : col < cols - 1 ? J[index + 1] : centre;
// CHECK-LABEL: {{^}}static __device__ __forceinline__ void __lo_body_diffuse_in_fused_0(
// CHECK-NOT: tile
// CHECK: {{^}}  float cN = (__lo_nbset_C_x0_y0 ? __lo_nb_C_x0_y0 : C[index]);
// CHECK-NEXT: float cS = ty < BLOCK_SIZE - 1 ? (__lo_nbset_C_x0_y1 ? __lo_nb_C_x0_y1 : C[index + cols])
// CHECK-LABEL: {{^}}__global__ void __lo_fused_0(
// CHECK-NOT: __syncthreads
// CHECK: {{^}}  if (blockIdx.y * blockDim.y + threadIdx.y + 1u < gridDim.y * blockDim.y)
// CHECK-NEXT: __lo_body_coefficient_in_fused_0({{.*}}, false, blockIdx, make_uint3(threadIdx.x, threadIdx.y + 1u, threadIdx.z));
// CHECK-NEXT: if (blockIdx.x * blockDim.x + threadIdx.x + 1u < gridDim.x * blockDim.x)

#define BLOCK_SIZE 16
#ifndef BLOCK_Y
#define BLOCK_Y BLOCK_SIZE
#endif
__global__ void coefficient(const float *J, float *C, int rows, int cols) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
  int row = BLOCK_SIZE * by + ty, col = BLOCK_SIZE * bx + tx;
  __shared__ float tile[BLOCK_SIZE][BLOCK_SIZE];
  tile[ty][tx] = J[index];
  __syncthreads();
  float centre = tile[ty][tx];
  float south = ty < BLOCK_SIZE - 1 ? tile[ty + 1][tx] : row < rows - 1 ? J[index + cols] : centre;
  float east = tx < BLOCK_SIZE - 1 ? tile[ty][tx + 1] : col < cols - 1 ? J[index + 1] : centre;
  float s = south - centre, e = east - centre;
  C[index] = 1.0f / (1.0f + s * s + e * e);
}
__global__ void diffuse(const float *J, const float *C, float *out, int rows, int cols) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
  int row = BLOCK_SIZE * by + ty, col = BLOCK_SIZE * bx + tx;
  __shared__ float tile[BLOCK_SIZE][BLOCK_SIZE];
  tile[ty][tx] = C[index];
  __syncthreads();
  float cN = tile[ty][tx];
  float cS = ty < BLOCK_SIZE - 1 ? tile[ty + 1][tx] : row < rows - 1 ? C[index + cols] : cN;
  float cE = tx < BLOCK_SIZE - 1 ? tile[ty][tx + 1] : col < cols - 1 ? C[index + 1] : cN;
  out[index] = J[index] + 0.25f * (cN + cS + cE);
}
int main() {
  float *J, *C, *out;
  int rows = 4096, cols = 4096;
  dim3 block(BLOCK_SIZE, BLOCK_Y), grid(cols / BLOCK_SIZE, rows / BLOCK_Y);
  coefficient<<<grid, block>>>(J, C, rows, cols);
  diffuse<<<grid, block>>>(J, C, out, rows, cols);
}

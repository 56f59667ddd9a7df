// Two tiled shared-memory kernels (16 x 16 tile behind __syncthreads, index
// `cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx`, neighbours from
// the tile or from global memory at its edge), the second reading the
// first's result at its south and east neighbours. The read sets are the
// stencil's (J and C at 0, +1, +cols: halo 1), and the launches stay apart
// with the reason: the producer would have to run again at the halo sites,
// which its barrier and tile do not allow.
// RUN: %launchopt fuse %s --function=main --plan=%t.plan --write-problem=%t.json -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %FileCheck %s --check-prefix=PROBLEM < %t.json
// RUN: %FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: %nvcc-compile %t.cu

// CHECK: tiled-halo-dependence.cu:[[@LINE+51]]:3: remark: not fused: not fused with 'diffuse': 'coefficient' synchronises its block (__syncthreads): its body cannot be run again at the neighbours' sites that a later member reads
// CHECK: tiled-halo-dependence.cu:[[@LINE+51]]:3: remark: not fused: not fused with 'coefficient':

// PROBLEM: "barrier": true,
// PROBLEM: "name": "coefficient",
// PROBLEM: "array": "J",
// PROBLEM-NEXT: "halo_radius": 1,
// PROBLEM-NEXT: "thread_load": 3
// PROBLEM: "barrier": true,
// PROBLEM: "name": "diffuse",
// PROBLEM: "array": "C",
// PROBLEM-NEXT: "halo_radius": 1,
// PROBLEM-NEXT: "thread_load": 3

// PLAN: "members": [
// PLAN-NEXT: "coefficient"
// PLAN: "members": [
// PLAN-NEXT: "diffuse"

#define BLOCK_SIZE 16
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
  dim3 block(BLOCK_SIZE, BLOCK_SIZE), grid(cols / BLOCK_SIZE, rows / BLOCK_SIZE);
  coefficient<<<grid, block>>>(J, C, rows, cols);
  diffuse<<<grid, block>>>(J, C, out, rows, cols);
}

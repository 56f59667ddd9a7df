// Kernels of the 2-D anisotropic diffusion (diffusion2d.cu includes this
// file). Both work on 16x16 tiles: a thread per pixel, the tile in shared
// memory, neighbours outside the tile read from global memory.
#define BLOCK_SIZE 16

// Differences to the four neighbours and the edge-stopping coefficient
// 1 / (1 + |grad J|^2 / kappa2): close to 1 in flat regions, small at edges.
// The image border repeats the border pixel.
__global__ void edge_coefficient(const float *J, float *C, float *dN, float *dS, float *dW,
                                 float *dE, int rows, int cols, float kappa2) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
  int row = BLOCK_SIZE * by + ty, col = BLOCK_SIZE * bx + tx;
  __shared__ float tile[BLOCK_SIZE][BLOCK_SIZE];
  tile[ty][tx] = J[index];
  __syncthreads();
  float centre = tile[ty][tx];
  float north, south, west, east;
  if (ty > 0)
    north = tile[ty - 1][tx];
  else
    north = row > 0 ? J[index - cols] : centre;
  if (ty < BLOCK_SIZE - 1)
    south = tile[ty + 1][tx];
  else
    south = row < rows - 1 ? J[index + cols] : centre;
  if (tx > 0)
    west = tile[ty][tx - 1];
  else
    west = col > 0 ? J[index - 1] : centre;
  if (tx < BLOCK_SIZE - 1)
    east = tile[ty][tx + 1];
  else
    east = col < cols - 1 ? J[index + 1] : centre;
  float n = north - centre, s = south - centre, w = west - centre, e = east - centre;
  float gradient2 = 0.25f * (n * n + s * s + w * w + e * e);
  C[index] = 1.0f / (1.0f + gradient2 / kappa2);
  dN[index] = n;
  dS[index] = s;
  dW[index] = w;
  dE[index] = e;
}

// The divergence of C grad J: the flux through the north and west faces uses
// the pixel's own coefficient, through the south and east faces the
// neighbour's (read from the tile, or from global memory at the tile's edge).
__global__ void apply_diffusion(float *J, const float *C, const float *dN, const float *dS,
                                const float *dW, const float *dE, int rows, int cols,
                                float lambda) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
  int row = BLOCK_SIZE * by + ty, col = BLOCK_SIZE * bx + tx;
  __shared__ float tile[BLOCK_SIZE][BLOCK_SIZE];
  tile[ty][tx] = C[index];
  __syncthreads();
  float cN = tile[ty][tx], cW = cN;
  float cS, cE;
  if (ty < BLOCK_SIZE - 1)
    cS = tile[ty + 1][tx];
  else
    cS = row < rows - 1 ? C[index + cols] : cN;
  if (tx < BLOCK_SIZE - 1)
    cE = tile[ty][tx + 1];
  else
    cE = col < cols - 1 ? C[index + 1] : cN;
  float divergence = cN * dN[index] + cS * dS[index] + cW * dW[index] + cE * dE[index];
  J[index] = J[index] + 0.25f * lambda * divergence;
}

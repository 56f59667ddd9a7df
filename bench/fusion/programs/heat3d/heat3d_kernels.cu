// The kernel of the 3-D heat solver (heat3d.cu includes this file): one
// explicit step of the heat equation with a heat source, 7-point stencil,
// a thread per cell (the grid's z axis walks the planes). Boundary cells
// keep their (fixed) temperature.
__global__ void heat_step(const float *in, float *out, const float *power, int nx, int ny,
                          int nz, float alpha, float dt) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  size_t plane = size_t(nx) * ny;
  size_t c = z * plane + size_t(y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[c] = in[c];
    return;
  }
  float laplacian = in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - plane] +
                    in[c + plane] - 6.0f * in[c];
  out[c] = in[c] + dt * (alpha * laplacian + power[c]);
}

// The kernel of the 3-D heat solver (heat3d.cu includes this file): one
// explicit step of the heat equation with a heat source, 7-point stencil.
// A thread per (x, y) column marches up the z axis and keeps the cells below,
// at and above in registers. Boundary cells keep their (fixed) temperature.
__global__ void heat_step(const float *in, float *out, const float *power, int nx, int ny,
                          int nz, float alpha, float dt) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  size_t plane = size_t(nx) * ny;
  size_t c = size_t(y) * nx + x;
  bool border = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
  float below = in[c], centre = in[c + plane];
  out[c] = below;
  for (int z = 1; z < nz - 1; ++z) {
    c += plane;
    float above = in[c + plane];
    if (border) {
      out[c] = centre;
    } else {
      float laplacian = in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + below + above -
                        6.0f * centre;
      out[c] = centre + dt * (alpha * laplacian + power[c]);
    }
    below = centre;
    centre = above;
  }
  out[c + plane] = centre;
}

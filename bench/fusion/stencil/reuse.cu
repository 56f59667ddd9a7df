// The shallow-water step of dycore.cu written to save memory: one scratch
// array holds the height flux first and the kinetic energy after it, so the
// kernel that overwrites it must wait for the divergence to read the flux (an
// expandable read-write array, scalable-kernel-fusion §II-B1 c). The test-bed
// of renaming (launchopt fuse --rename-expandable): kinetic_energy can join
// the kernels that read u and v only when the energy goes to a new buffer.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

__global__ void flux_x(const float *h, const float *u, float *hu, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hu[c] = 0.5f * (h[c] + h[c + 1]) * u[c];
}

__global__ void flux_y(const float *h, const float *v, float *hv, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hv[c] = 0.5f * (h[c] + h[c + nx]) * v[c];
}

__global__ void kinetic_energy(const float *u, const float *v, float *ke, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  ke[c] = 0.25f * (u[c] * u[c] + u[c - 1] * u[c - 1] + v[c] * v[c] + v[c - nx] * v[c - nx]);
}

__global__ void vorticity(const float *u, const float *v, const float *f, float *q, int nx,
                          int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  q[c] = (v[c + 1] - v[c]) - (u[c + nx] - u[c]) + f[c];
}

__global__ void divergence(const float *hu, const float *hv, float *dv, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  dv[c] = (hu[c] - hu[c - 1]) + (hv[c] - hv[c - nx]);
}

__global__ void update_u(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *un, float dt, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + 1] - ke[c]) + 9.81f * ((h[c + 1] + b[c + 1]) - (h[c] + b[c]));
  un[c] = u[c] - dt * (grad - q[c] * v[c]);
}

__global__ void update_v(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *vn, float dt, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + nx] - ke[c]) + 9.81f * ((h[c + nx] + b[c + nx]) - (h[c] + b[c]));
  vn[c] = v[c] - dt * (grad + q[c] * u[c]);
}

__global__ void update_h(const float *h, const float *dv, float *hn, float dt, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hn[c] = h[c] - dt * dv[c];
}

// Fourth-order hyperdiffusion of the new height: a radius-2 stencil.
__global__ void diffuse_h(const float *hn, float *hs, float nu, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hs[c] = hn[c] + nu * (hn[c - 2] + hn[c + 2] + hn[c - 2 * nx] + hn[c + 2 * nx] - 4.0f * hn[c]);
}

__global__ void energy(const float *hs, const float *un, const float *vn, const float *b,
                       float *e, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  e[c] = 0.5f * hs[c] * (un[c] * un[c] + vn[c] * vn[c]) + 9.81f * hs[c] * b[c];
}

// One time step: ten launches over the same grid; `w` is the scratch array
// (the driver's hu output), ke is left as the driver set it.
void step(const float *h, const float *u, const float *v, const float *b, const float *f,
          float *w, float *hv, float *ke, float *q, float *dv, float *un, float *vn, float *hn,
          float *hs, float *e, float dt, float nu, int nx, int ny) {
  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  flux_x<<<grid, block>>>(h, u, w, nx, ny);
  flux_y<<<grid, block>>>(h, v, hv, nx, ny);
  divergence<<<grid, block>>>(w, hv, dv, nx, ny);
  kinetic_energy<<<grid, block>>>(u, v, w, nx, ny);
  vorticity<<<grid, block>>>(u, v, f, q, nx, ny);
  update_u<<<grid, block>>>(u, v, h, b, w, q, un, dt, nx, ny);
  update_v<<<grid, block>>>(u, v, h, b, w, q, vn, dt, nx, ny);
  update_h<<<grid, block>>>(h, dv, hn, dt, nx, ny);
  diffuse_h<<<grid, block>>>(hn, hs, nu, nx, ny);
  energy<<<grid, block>>>(hs, un, vn, b, e, nx, ny);
}

#ifndef LAUNCHOPT_TESTBED_NO_MAIN
#include "driver.inc"
#endif

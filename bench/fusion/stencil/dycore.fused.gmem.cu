// A two-dimensional shallow-water dynamical core written the way such codes
// are ported to GPUs: one small memory-bound stencil kernel per term, all
// launched from the host with the same configuration, sharing arrays.
// The fusion test-bed of launchopt (bench/fusion/README.md).
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

// One time step: ten launches over the same grid.
#ifdef LAUNCHOPT_FUSION_TIMING
#include <cstdio>
static const char *const __lo_fusion_names[] = {"kinetic_energy", "flux_x+flux_y+vorticity+update_u", "divergence+update_h", "update_v+diffuse_h+energy", };
static cudaEvent_t __lo_fusion_events[2 * 4];
static double __lo_fusion_ms[4];
static void __lo_fusion_begin(int I) {
  if (!__lo_fusion_events[0])
    for (cudaEvent_t &E : __lo_fusion_events)
      cudaEventCreate(&E);
  cudaEventRecord(__lo_fusion_events[2 * I]);
}
static void __lo_fusion_end(int I) {
  float Ms = 0;
  cudaEventRecord(__lo_fusion_events[2 * I + 1]);
  cudaEventSynchronize(__lo_fusion_events[2 * I + 1]);
  cudaEventElapsedTime(&Ms, __lo_fusion_events[2 * I], __lo_fusion_events[2 * I + 1]);
  __lo_fusion_ms[I] += Ms;
}
static void __lo_fusion_timing_report(int Runs) {
  for (int I = 0; I < 4; ++I)
    printf("launch %d %s: %.4f ms\n", I, __lo_fusion_names[I], __lo_fusion_ms[I] / Runs);
}
#else
#define __lo_fusion_begin(I)
#define __lo_fusion_end(I)
#endif

static __device__ __forceinline__ void __lo_body_flux_x(const float *h, const float *u, float *hu, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hu[c] = 0.5f * (h[c] + h[c + 1]) * u[c];
}

static __device__ __forceinline__ void __lo_body_flux_y(const float *h, const float *v, float *hv, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hv[c] = 0.5f * (h[c] + h[c + nx]) * v[c];
}

static __device__ __forceinline__ void __lo_body_vorticity(const float *u, const float *v, const float *f, float *q, int nx,
                          int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  q[c] = (v[c + 1] - v[c]) - (u[c + nx] - u[c]) + f[c];
}

static __device__ __forceinline__ void __lo_body_update_u(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *un, float dt, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + 1] - ke[c]) + 9.81f * ((h[c + 1] + b[c + 1]) - (h[c] + b[c]));
  un[c] = u[c] - dt * (grad - q[c] * v[c]);
}

// Complex fusion of flux_x+flux_y+vorticity+update_u (launchopt fuse).
// On chip: global memory: all arrays (the GMEM path was asked for).
__global__ void __lo_fused_0(const float *__lo_arr_h, const float *__lo_arr_u, float *__lo_arr_hu, int __lo_m0_nx, int __lo_m0_ny, const float *__lo_arr_v, float *__lo_arr_hv, int __lo_m1_nx, int __lo_m1_ny, const float *__lo_arr_f, float *__lo_arr_q, int __lo_m2_nx, int __lo_m2_ny, const float *__lo_arr_b, const float *__lo_arr_ke, float *__lo_arr_un, float __lo_m3_dt, int __lo_m3_nx, int __lo_m3_ny) {
  __lo_body_flux_x(__lo_arr_h, __lo_arr_u, __lo_arr_hu, __lo_m0_nx, __lo_m0_ny, blockIdx, threadIdx);
  __lo_body_flux_y(__lo_arr_h, __lo_arr_v, __lo_arr_hv, __lo_m1_nx, __lo_m1_ny, blockIdx, threadIdx);
  __lo_body_vorticity(__lo_arr_u, __lo_arr_v, __lo_arr_f, __lo_arr_q, __lo_m2_nx, __lo_m2_ny, blockIdx, threadIdx);
  __lo_body_update_u(__lo_arr_u, __lo_arr_v, __lo_arr_h, __lo_arr_b, __lo_arr_ke, __lo_arr_q, __lo_arr_un, __lo_m3_dt, __lo_m3_nx, __lo_m3_ny, blockIdx, threadIdx);
}

static __device__ __forceinline__ void __lo_body_divergence(const float *hu, const float *hv, float *dv, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  dv[c] = (hu[c] - hu[c - 1]) + (hv[c] - hv[c - nx]);
}

static __device__ __forceinline__ void __lo_body_update_h(const float *h, const float *dv, float *hn, float dt, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hn[c] = h[c] - dt * dv[c];
}

// Complex fusion of divergence+update_h (launchopt fuse).
// On chip: global memory: all arrays (the GMEM path was asked for).
__global__ void __lo_fused_1(const float *__lo_arr_hu, const float *__lo_arr_hv, float *__lo_arr_dv, int __lo_m0_nx, int __lo_m0_ny, const float *__lo_arr_h, float *__lo_arr_hn, float __lo_m1_dt, int __lo_m1_nx, int __lo_m1_ny) {
  __lo_body_divergence(__lo_arr_hu, __lo_arr_hv, __lo_arr_dv, __lo_m0_nx, __lo_m0_ny, blockIdx, threadIdx);
  __lo_body_update_h(__lo_arr_h, __lo_arr_dv, __lo_arr_hn, __lo_m1_dt, __lo_m1_nx, __lo_m1_ny, blockIdx, threadIdx);
}

static __device__ __forceinline__ void __lo_body_update_v(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *vn, float dt, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + nx] - ke[c]) + 9.81f * ((h[c + nx] + b[c + nx]) - (h[c] + b[c]));
  vn[c] = v[c] - dt * (grad + q[c] * u[c]);
}

static __device__ __forceinline__ void __lo_body_diffuse_h(const float *hn, float *hs, float nu, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hs[c] = hn[c] + nu * (hn[c - 2] + hn[c + 2] + hn[c - 2 * nx] + hn[c + 2 * nx] - 4.0f * hn[c]);
}

static __device__ __forceinline__ void __lo_body_energy(const float *hs, const float *un, const float *vn, const float *b,
                       float *e, int nx, int ny, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  e[c] = 0.5f * hs[c] * (un[c] * un[c] + vn[c] * vn[c]) + 9.81f * hs[c] * b[c];
}

// Complex fusion of update_v+diffuse_h+energy (launchopt fuse).
// On chip: global memory: all arrays (the GMEM path was asked for).
__global__ void __lo_fused_2(const float *__lo_arr_u, const float *__lo_arr_v, const float *__lo_arr_h, const float *__lo_arr_b, const float *__lo_arr_ke, const float *__lo_arr_q, float *__lo_arr_vn, float __lo_m0_dt, int __lo_m0_nx, int __lo_m0_ny, const float *__lo_arr_hn, float *__lo_arr_hs, float __lo_m1_nu, int __lo_m1_nx, int __lo_m1_ny, const float *__lo_arr_un, float *__lo_arr_e, int __lo_m2_nx, int __lo_m2_ny) {
  __lo_body_update_v(__lo_arr_u, __lo_arr_v, __lo_arr_h, __lo_arr_b, __lo_arr_ke, __lo_arr_q, __lo_arr_vn, __lo_m0_dt, __lo_m0_nx, __lo_m0_ny, blockIdx, threadIdx);
  __lo_body_diffuse_h(__lo_arr_hn, __lo_arr_hs, __lo_m1_nu, __lo_m1_nx, __lo_m1_ny, blockIdx, threadIdx);
  __lo_body_energy(__lo_arr_hs, __lo_arr_un, __lo_arr_vn, __lo_arr_b, __lo_arr_e, __lo_m2_nx, __lo_m2_ny, blockIdx, threadIdx);
}

void step(const float *h, const float *u, const float *v, const float *b, const float *f,
          float *hu, float *hv, float *ke, float *q, float *dv, float *un, float *vn, float *hn,
          float *hs, float *e, float dt, float nu, int nx, int ny) {
  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  __lo_fusion_begin(0);
  kinetic_energy<<<grid, block>>>(u, v, ke, nx, ny);
  __lo_fusion_end(0);
  __lo_fusion_begin(1);
  __lo_fused_0<<<grid, block>>>(h, u, hu, nx, ny, v, hv, nx, ny, f, q, nx, ny, b, ke, un, dt, nx, ny);
  __lo_fusion_end(1);
  __lo_fusion_begin(2);
  __lo_fused_1<<<grid, block>>>(hu, hv, dv, nx, ny, h, hn, dt, nx, ny);
  __lo_fusion_end(2);
  __lo_fusion_begin(3);
  __lo_fused_2<<<grid, block>>>(u, v, h, b, ke, q, vn, dt, nx, ny, hn, hs, nu, nx, ny, un, e, nx, ny);
  __lo_fusion_end(3);
}

#ifndef LAUNCHOPT_TESTBED_NO_MAIN
#include "driver.inc"
#endif

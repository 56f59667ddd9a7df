// Temperature of a 3-D block heated from inside, written the way a 3-D
// stencil solver usually is: one kernel (in an included .cu file) launched in
// a time loop, the two temperature buffers swapped on the host after every
// step. Part of the fusion corpus (bench/fusion/README.md).
// Usage: heat3d [width steps seed out.bin [reference.bin]] (a width x width x
// width/8 block, a thread per cell; default 512 x 512 x 64 cells, 20 steps).
// A step's time is the mean over all steps (StepTimer::mean_over_span), so
// that builds launching several steps at once compare.
#include "../common/driver.h"
#include "heat3d_kernels.cu"

const float Alpha = 0.1f, Dt = 0.5f;

// The same steps on the CPU, cell by cell, in the kernel's order of operations.
static void cpu_heat(std::vector<float> &in, const std::vector<float> &power, int nx, int ny,
                     int nz, int steps) {
  std::vector<float> out(in.size());
  size_t plane = size_t(nx) * ny;
  for (int step = 0; step < steps; ++step) {
#pragma omp parallel for
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          size_t c = z * plane + size_t(y) * nx + x;
          if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
            out[c] = in[c];
            continue;
          }
          float laplacian = in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - plane] +
                            in[c + plane] - 6.0f * in[c];
          out[c] = in[c] + Dt * (Alpha * laplacian + power[c]);
        }
    in.swap(out);
  }
}

#ifdef LAUNCHOPT_FUSION_TIMING
#include <cstdio>
static const char *const __lo_fusion_names[] = {"heat_step", "heat_step#2*3", };
static cudaEvent_t __lo_fusion_events[2 * 2];
static double __lo_fusion_ms[2];
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
  for (int I = 0; I < 2; ++I)
    printf("launch %d %s: %.4f ms\n", I, __lo_fusion_names[I], __lo_fusion_ms[I] / Runs);
}
#else
#define __lo_fusion_begin(I)
#define __lo_fusion_end(I)
#endif

// Temporal fusion of heat_step (launchopt fuse): __lo_tsteps0 steps per launch, the steps
// before the last computed in shared-memory tiles over the block widened by their reach.
#ifdef LAUNCHOPT_TEMPORAL_STEPS
static constexpr int __lo_tsteps0 = LAUNCHOPT_TEMPORAL_STEPS;
#else
static constexpr int __lo_tsteps0 = 3;
#endif
// The thread at a site's offset along the grid's axes, if the grid has one.
static __device__ __forceinline__ bool __lo_tneighbour(const uint3 b, const uint3 t, int dx, int dy, int dz,
                                              uint3 &vb, uint3 &vt) {
  const long long gx = (long long)b.x * blockDim.x + t.x + dx;
  const long long gy = (long long)b.y * blockDim.y + t.y + dy;
  const long long gz = (long long)b.z * blockDim.z + t.z + dz;
  if (gx < 0 || gy < 0 || gz < 0 || gx >= (long long)gridDim.x * blockDim.x ||
      gy >= (long long)gridDim.y * blockDim.y || gz >= (long long)gridDim.z * blockDim.z)
    return false;
  vb = make_uint3(unsigned(gx / blockDim.x), unsigned(gy / blockDim.y), unsigned(gz / blockDim.z));
  vt = make_uint3(unsigned(gx % blockDim.x), unsigned(gy % blockDim.y), unsigned(gz % blockDim.z));
  return true;
}

extern __shared__ __align__(16) unsigned char __lo_ttilemem[];

// Cells of the widest tile a block of K steps holds (step 1's).
static __host__ __device__ __forceinline__ int __lo_ttcells_heat_step(const dim3 __lo_td, int __lo_tK) {
  return (__lo_td.x + 2 * (__lo_tK - 1) * 1) * (__lo_td.y + 2 * (__lo_tK - 1) * 1) * (__lo_td.z + 2 * (__lo_tK - 1) * 1);
}

template <int __lo_tS, int __lo_tK>
static __device__ __forceinline__ float __lo_ttread_heat_step(const float *in, float *out, const float *power, int nx, int ny,
                          int nz, float alpha, float dt, const uint3 __lo_tb, const uint3 __lo_ti, int, int, int, long long);

template <int __lo_tS, int __lo_tK>
static __device__ __forceinline__ void __lo_ttstep_heat_step(const float *in, float *out, const float *power, int nx, int ny,
                          int nz, float alpha, float dt, float &__lo_tvalue, bool &__lo_twritten, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  size_t plane = size_t(nx) * ny;
  size_t c = z * plane + size_t(y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    (void)(__lo_tvalue = __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 0, 0, 0, (c)), __lo_twritten = true, __lo_tS == __lo_tK ? (void)(out[c] = __lo_tvalue) : (void)0);
    return;
  }
  float laplacian = __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, -1, 0, 0, (c - 1)) + __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 1, 0, 0, (c + 1)) + __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 0, -1, 0, (c - nx)) + __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 0, 1, 0, (c + nx)) + __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 0, 0, -1, (c - plane)) +
                    __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 0, 0, 1, (c + plane)) - 6.0f * __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 0, 0, 0, (c));
  (void)(__lo_tvalue = __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, blockIdx, threadIdx, 0, 0, 0, (c)) + dt * (alpha * laplacian + power[c]), __lo_twritten = true, __lo_tS == __lo_tK ? (void)(out[c] = __lo_tvalue) : (void)0);
}

// Step J's value at the neighbour at the offset, from its tile; a site that
// no step writes keeps the buffer's value.
template <int __lo_tJ, int __lo_tK>
static __device__ __forceinline__ float __lo_ttread_heat_step(const float *in, float *out, const float *power, int nx, int ny,
                          int nz, float alpha, float dt, const uint3 __lo_tb, const uint3 __lo_ti, int __lo_tdx, int __lo_tdy, int __lo_tdz, long long __lo_te) {
  if constexpr (__lo_tJ == 0) {
    return in[__lo_te];
  } else {
    const int __lo_twx = (__lo_tK - __lo_tJ) * 1, __lo_twy = (__lo_tK - __lo_tJ) * 1, __lo_twz = (__lo_tK - __lo_tJ) * 1;
    const int __lo_ttx = blockDim.x + 2 * __lo_twx, __lo_tty = blockDim.y + 2 * __lo_twy;
    const int __lo_tcells = __lo_ttcells_heat_step(blockDim, __lo_tK);
    const int __lo_tlx = int((long long)__lo_tb.x * blockDim.x + __lo_ti.x + __lo_tdx - (long long)blockIdx.x * blockDim.x) + __lo_twx;
    const int __lo_tly = int((long long)__lo_tb.y * blockDim.y + __lo_ti.y + __lo_tdy - (long long)blockIdx.y * blockDim.y) + __lo_twy;
    const int __lo_tlz = int((long long)__lo_tb.z * blockDim.z + __lo_ti.z + __lo_tdz - (long long)blockIdx.z * blockDim.z) + __lo_twz;
    const int __lo_tl = (__lo_tlz * __lo_tty + __lo_tly) * __lo_ttx + __lo_tlx;
    const float *__lo_ttile = (const float *)__lo_ttilemem + (__lo_tJ % 2) * __lo_tcells;
    const bool *__lo_twritten = (const bool *)((const float *)__lo_ttilemem + 2 * __lo_tcells) + (__lo_tJ % 2) * __lo_tcells;
    return __lo_twritten[__lo_tl] ? __lo_ttile[__lo_tl] : __lo_tJ % 2 ? out[__lo_te] : in[__lo_te];
  }
}

// Step J over the block widened by the reach of the steps after it, into
// its tile; then the next step.
template <int __lo_tJ, int __lo_tK>
static __device__ __forceinline__ void __lo_ttlevel_heat_step(const float *in, float *out, const float *power, int nx, int ny,
                          int nz, float alpha, float dt) {
  if constexpr (__lo_tJ < __lo_tK) {
    const int __lo_twx = (__lo_tK - __lo_tJ) * 1, __lo_twy = (__lo_tK - __lo_tJ) * 1, __lo_twz = (__lo_tK - __lo_tJ) * 1;
    const int __lo_ttx = blockDim.x + 2 * __lo_twx, __lo_tty = blockDim.y + 2 * __lo_twy, __lo_ttz = blockDim.z + 2 * __lo_twz;
    const int __lo_tcells = __lo_ttcells_heat_step(blockDim, __lo_tK);
    float *__lo_ttile = (float *)__lo_ttilemem + (__lo_tJ % 2) * __lo_tcells;
    bool *__lo_twritten = (bool *)((float *)__lo_ttilemem + 2 * __lo_tcells) + (__lo_tJ % 2) * __lo_tcells;
    for (int __lo_tl = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
         __lo_tl < __lo_ttx * __lo_tty * __lo_ttz; __lo_tl += blockDim.x * blockDim.y * blockDim.z) {
      uint3 __lo_tvb, __lo_tvt;
      float __lo_tvalue{};
      bool __lo_tset = false;
      if (__lo_tneighbour(blockIdx, make_uint3(0, 0, 0), __lo_tl % __lo_ttx - __lo_twx, __lo_tl / __lo_ttx % __lo_tty - __lo_twy,
                               __lo_tl / (__lo_ttx * __lo_tty) - __lo_twz, __lo_tvb, __lo_tvt))
        __lo_ttstep_heat_step<__lo_tJ, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, __lo_tvalue, __lo_tset, __lo_tvb, __lo_tvt);
      __lo_ttile[__lo_tl] = __lo_tvalue;
      __lo_twritten[__lo_tl] = __lo_tset;
    }
    __syncthreads();
    __lo_ttlevel_heat_step<__lo_tJ + 1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt);
  }
}

template <int __lo_tK>
__global__ void __lo_ttemporal_heat_step(const float *in, float *out, const float *power, int nx, int ny,
                          int nz, float alpha, float dt) {
  __lo_ttlevel_heat_step<1, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt);
  float __lo_tvalue;
  bool __lo_twritten = false;
  __lo_ttstep_heat_step<__lo_tK, __lo_tK>(in, out, power, nx, ny, nz, alpha, dt, __lo_tvalue, __lo_twritten, blockIdx, threadIdx);
}

int main(int argc, char **argv) {
  RunArgs args = parse_args(argc, argv, 512, 20);
  int nx = int(args.size), ny = nx, nz = nx / 8;
  if (nz < 3) {
    fprintf(stderr, "heat3d: the width must be at least 24 cells\n");
    return 2;
  }
  size_t n = size_t(nx) * ny * nz, bytes = n * sizeof(float);
  std::vector<float> temperature(n), heat(n);
  unsigned long long seed = args.seed;
  fill_uniform(temperature, seed, 20.0f, 30.0f);
  // Sources in a central cube, none elsewhere.
  for (size_t c = 0; c < n; ++c) {
    int x = c % nx, y = (c / nx) % ny, z = c / (size_t(nx) * ny);
    bool inside = x > nx / 4 && x < 3 * nx / 4 && y > ny / 4 && y < 3 * ny / 4 &&
                  z > nz / 4 && z < 3 * nz / 4;
    heat[c] = inside ? uniform(seed, 0.0f, 0.1f) : 0.0f;
  }

  float *t_in, *t_out, *power;
  CHECK(cudaMalloc(&t_in, bytes));
  CHECK(cudaMalloc(&t_out, bytes));
  CHECK(cudaMalloc(&power, bytes));
  for (const char *name : {"t_in", "t_out", "power"})
    describe_array(name, n, sizeof(float));
  CHECK(cudaMemcpy(t_in, temperature.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(power, heat.data(), bytes, cudaMemcpyHostToDevice));

  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, nz);
  // Warm-up: loads the kernel before the timed steps; t_out is written
  // over by the first step.
  __lo_fusion_begin(0);
  heat_step<<<grid, block>>>(t_in, t_out, power, nx, ny, nz, Alpha, Dt);
  __lo_fusion_end(0);
  StepTimer timer(args.steps);
  for (int step = 0; step < args.steps; ++step) {
    timer.begin(step);
    __lo_fusion_begin(1);
  const bool __lo_tgroup0 = (step - 0) / __lo_tsteps0 * __lo_tsteps0 + __lo_tsteps0 <= (args.steps) - 0;
    const bool __lo_tfirst0 = (step - 0) % __lo_tsteps0 == 0;
    if (!__lo_tgroup0)
      heat_step<<<grid, block>>>(t_in, t_out, power, nx, ny, nz, Alpha, Dt);
    else if (__lo_tfirst0) {
      const dim3 __lo_tblock0 = dim3(block);
      __lo_ttemporal_heat_step<__lo_tsteps0><<<grid, __lo_tblock0, 2 * __lo_ttcells_heat_step(__lo_tblock0, __lo_tsteps0) * (sizeof(float) + 1)>>>(t_in, t_out, power, nx, ny, nz, Alpha, Dt);
    }
  __lo_fusion_end(1);
    timer.end(step);
    if (!__lo_tgroup0 || __lo_tfirst0)
      std::swap(t_in, t_out);
  }
  CHECK(cudaGetLastError());
  float median, minimum;
  timer.summary(2, median, minimum);
  median = minimum = timer.mean_over_span();
  std::vector<float> result(n);
  CHECK(cudaMemcpy(result.data(), t_in, bytes, cudaMemcpyDeviceToHost));
#ifdef LAUNCHOPT_FUSION_TIMING
  __lo_fusion_timing_report(args.steps);
#endif

  cpu_heat(temperature, heat, nx, ny, nz, args.steps);
  CheckResult check = check_outputs(args, result, temperature, 1e-5, 1.0, 1e-5);
  std::string size = std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
  return report_result("heat3d", args, size, check, median, minimum);
}

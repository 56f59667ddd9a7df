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
static const char *const __lo_fusion_names[] = {"heat_step", "heat_step#2", };
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
  heat_step<<<grid, block>>>(t_in, t_out, power, nx, ny, nz, Alpha, Dt);
  __lo_fusion_end(1);
    timer.end(step);
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

// Edge-preserving (anisotropic) diffusion of a noisy image, written the way
// image-processing codes are ported to GPUs: two tiled kernels per iteration
// in an included .cu file, and between iterations the host copies a region of
// interest back and estimates the noise from it, which sets the next
// iteration's edge threshold. Part of the fusion corpus (bench/fusion/README.md).
// Usage: diffusion2d [side steps seed out.bin [reference.bin]] (side: a
// multiple of 16, at least 512; default 4096x4096 pixels, 20 iterations).
#include "../common/driver.h"
#include "diffusion2d_kernels.cu"

// The region of interest lies inside one flat square of the test image, so its
// variance is the remaining noise.
const int RoiOffset = 64, RoiSide = 128, SquareSide = 256;
const float Lambda = 0.5f;

static float noise_kappa2(const std::vector<float> &roi) {
  double sum = 0, sum2 = 0;
  for (float x : roi) {
    sum += x;
    sum2 += double(x) * x;
  }
  double mean = sum / roi.size();
  return float(std::max(sum2 / roi.size() - mean * mean, 1e-12));
}

static std::vector<float> cpu_roi(const std::vector<float> &J, int cols) {
  std::vector<float> roi(RoiSide * RoiSide);
  for (int r = 0; r < RoiSide; ++r)
    for (int c = 0; c < RoiSide; ++c)
      roi[r * RoiSide + c] = J[size_t(RoiOffset + r) * cols + RoiOffset + c];
  return roi;
}

// The same iteration on the CPU, pixel by pixel, in the kernels' order of operations.
static void cpu_diffusion(std::vector<float> &J, int rows, int cols, int steps) {
  size_t n = size_t(rows) * cols;
  std::vector<float> C(n), dN(n), dS(n), dW(n), dE(n);
  for (int step = 0; step < steps; ++step) {
    float kappa2 = noise_kappa2(cpu_roi(J, cols));
#pragma omp parallel for
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        size_t i = size_t(r) * cols + c;
        float centre = J[i];
        float n_ = (r > 0 ? J[i - cols] : centre) - centre;
        float s = (r < rows - 1 ? J[i + cols] : centre) - centre;
        float w = (c > 0 ? J[i - 1] : centre) - centre;
        float e = (c < cols - 1 ? J[i + 1] : centre) - centre;
        float gradient2 = 0.25f * (n_ * n_ + s * s + w * w + e * e);
        C[i] = 1.0f / (1.0f + gradient2 / kappa2);
        dN[i] = n_;
        dS[i] = s;
        dW[i] = w;
        dE[i] = e;
      }
#pragma omp parallel for
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        size_t i = size_t(r) * cols + c;
        float cS = r < rows - 1 ? C[i + cols] : C[i];
        float cE = c < cols - 1 ? C[i + 1] : C[i];
        float divergence = C[i] * dN[i] + cS * dS[i] + C[i] * dW[i] + cE * dE[i];
        J[i] = J[i] + 0.25f * Lambda * divergence;
      }
  }
}

#ifdef LAUNCHOPT_FUSION_TIMING
#include <cstdio>
static const char *const __lo_fusion_names[] = {"edge_coefficient", "apply_diffusion", };
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
  RunArgs args = parse_args(argc, argv, 4096, 20);
  int rows = int(args.size), cols = int(args.size);
  if (rows % BLOCK_SIZE != 0 || rows < 512) {
    fprintf(stderr, "diffusion2d: the side must be a multiple of %d and at least 512\n",
            BLOCK_SIZE);
    return 2;
  }
  size_t n = size_t(rows) * cols, bytes = n * sizeof(float);
  // Squares of two grey levels plus uniform noise.
  std::vector<float> image(n);
  unsigned long long seed = args.seed;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      image[size_t(r) * cols + c] =
          1.0f + float(((r / SquareSide) + (c / SquareSide)) % 2) + uniform(seed, -0.2f, 0.2f);

  float *J, *C, *dN, *dS, *dW, *dE;
  CHECK(cudaMalloc(&J, bytes));
  CHECK(cudaMalloc(&C, bytes));
  CHECK(cudaMalloc(&dN, bytes));
  CHECK(cudaMalloc(&dS, bytes));
  CHECK(cudaMalloc(&dW, bytes));
  CHECK(cudaMalloc(&dE, bytes));
  for (const char *name : {"J", "C", "dN", "dS", "dW", "dE"})
    describe_array(name, n, sizeof(float));
  CHECK(cudaMemcpy(J, image.data(), bytes, cudaMemcpyHostToDevice));

  dim3 block(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid(cols / BLOCK_SIZE, rows / BLOCK_SIZE);
  std::vector<float> roi(RoiSide * RoiSide);
  StepTimer timer(args.steps);
  for (int step = 0; step < args.steps; ++step) {
    CHECK(cudaMemcpy2D(roi.data(), RoiSide * sizeof(float), J + size_t(RoiOffset) * cols + RoiOffset,
                       cols * sizeof(float), RoiSide * sizeof(float), RoiSide,
                       cudaMemcpyDeviceToHost));
    float kappa2 = noise_kappa2(roi);
    timer.begin(step);
    __lo_fusion_begin(0);
  edge_coefficient<<<grid, block>>>(J, C, dN, dS, dW, dE, rows, cols, kappa2);
  __lo_fusion_end(0);
  __lo_fusion_begin(1);
  apply_diffusion<<<grid, block>>>(J, C, dN, dS, dW, dE, rows, cols, Lambda);
  __lo_fusion_end(1);
    timer.end(step);
  }
  CHECK(cudaGetLastError());
  float median, minimum;
  timer.summary(2, median, minimum);
  std::vector<float> result(n);
  CHECK(cudaMemcpy(result.data(), J, bytes, cudaMemcpyDeviceToHost));
#ifdef LAUNCHOPT_FUSION_TIMING
  __lo_fusion_timing_report(args.steps);
#endif

  cpu_diffusion(image, rows, cols, args.steps);
  CheckResult check = check_outputs(args, result, image, 1e-4, 1e-3, 1e-5);
  return report_result("diffusion2d", args,
                       std::to_string(rows) + "x" + std::to_string(cols), check, median, minimum);
}

// Launches in a branch only the device side compiles (`#if __CUDA_ARCH__ >=
// 350`, the guard older dynamic-parallelism code wrote around device-side
// launches) are not in the host-side parse launchopt reads: it says so at
// each one, once for a whole pipeline, and leaves them as written. A launch
// the host side also takes (`!defined(__CUDA_ARCH__) || …`) is transformed;
// `<<<` in a comment, a #define or a host-only branch is no warning.
// RUN: %launchopt --threshold --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --implicit-check-not=warning: < %t.remarks
// RUN: %FileCheck %s --check-prefix=KEPT < %t.cu
// RUN: %nvcc-compile %t.cu

__global__ void fill(float *out, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v * i;
}

#define LAUNCH_FILL(p, n) fill<<<((n) + 127) / 128, 128>>>(p, n, 0.0f)

__global__ void guarded(float **rows, const int *lens, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m)
    return;
  int n = lens[r];
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 350)
  // fill<<<1, 1>>>(rows[r], n, 0.0f) in a comment is no launch.
  fill<<<(n + 127) / 128, 128>>>(rows[r], n, 1.0f + r);
#else
  for (int i = 0; i < n; ++i)
    rows[r][i] = (1.0f + r) * i;
#endif
}

__global__ void nested(float **rows, const int *lens, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
#if __CUDA_ARCH__ >= 500
  if (r < m)
    fill<<<(lens[r] + 63) / 64, 64>>>(rows[r], lens[r], 2.0f);
#endif
#endif
}

__global__ void both(float **rows, const int *lens, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 350
  if (r < m)
    fill<<<(lens[r] + 63) / 64, 64>>>(rows[r], lens[r], 3.0f);
#endif
}

void host(float **rows, const int *lens, int m) {
#ifndef __CUDA_ARCH__
  guarded<<<(m + 127) / 128, 128>>>(rows, lens, m);
  nested<<<(m + 127) / 128, 128>>>(rows, lens, m);
  both<<<(m + 127) / 128, 128>>>(rows, lens, m);
#endif
}

// CHECK: device-only-launch-warning.cu:27:3: warning: the launch of 'fill' is left as written: it is in code that only the device side compiles ('#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 350)' at line 25), and launchopt reads the host side of the file, where that branch is skipped
// CHECK: device-only-launch-warning.cu:39:5: warning: the launch of 'fill' is left as written: {{.*}}('#if __CUDA_ARCH__ >= 500' at line 37)
// CHECK-DAG: device-only-launch-warning.cu:48:5: remark: threshold applied to launch of 'fill'
// CHECK-DAG: device-only-launch-warning.cu:48:5: remark: aggregate applied to launch of 'fill'
// KEPT: fill<<<(n + 127) / 128, 128>>>(rows[r], n, 1.0f + r);
// KEPT: fill<<<(lens[r] + 63) / 64, 64>>>(rows[r], lens[r], 2.0f);

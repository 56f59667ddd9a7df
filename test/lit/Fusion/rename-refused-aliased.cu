// Renaming is refused for t: relax gets t as the array it reads and as the
// one it overwrites, so a new version would turn the in-place update into
// one between two buffers. t keeps one version: the search cannot move relax
// before gather, the output allocates nothing, and the remark says why.
// RUN: %launchopt fuse %s --search=exact --rename-expandable --report=%t.txt -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile %t.cu

__global__ void smooth(const float *in, float *t, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) t[c] = in[c - 1] + in[c] + in[c + 1];
}
__global__ void gather(const float *t, float *a, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) a[c] = t[c - 1] - t[c + 1];
}
__global__ void relax(const float *in, const float *old, float *t, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) t[c] = 2.0f * in[c] - in[c - 1] - in[c + 1] + 0.5f * old[c];
}
__global__ void scale(const float *t, float *b, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) b[c] = 0.5f * t[c];
}

void run(const float *in, float *t, float *a, float *b, int n) {
  smooth<<<(n + 255) / 256, 256>>>(in, t, n);
  gather<<<(n + 255) / 256, 256>>>(t, a, n);
  relax<<<(n + 255) / 256, 256>>>(in, t, t, n);
  scale<<<(n + 255) / 256, 256>>>(t, b, n);
}

// REPORT: fusion plan: 4 of 4 kernels fused into 2 new kernels
// REPORT: launch 0: complex fusion of smooth(halo 1) gather;
// REPORT: launch 1: complex fusion of relax scale;
// REPORT: array t not renamed: aliased by another argument of 'relax' at line 31
// REMARK: rename-refused-aliased.cu:29:3: remark: not renamed: array 't': aliased by another argument of 'relax' at line 31
// CHECK-NOT: RenamedArrays
// CHECK-LABEL: void run(
// CHECK-NEXT: __lo_fused_0<<<(n + 255) / 256, 256>>>(
// CHECK-NEXT: __lo_fused_1<<<(n + 255) / 256, 256>>>(
// CHECK-NEXT: }

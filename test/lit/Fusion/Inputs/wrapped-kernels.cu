// Kernels and one host wrapper per kernel, included by wrappers-in-included-file.cu
// (never edited by launchopt fuse).
#include <cstdio>
#include <cstdlib>
#define CHECK_LAST_ERROR()                                                     \
  do {                                                                         \
    cudaError_t e = cudaGetLastError();                                        \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s\n", cudaGetErrorString(e));                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
__global__ void first(const float *in, float *p, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n) p[c] = 2.0f * in[c];
}
__global__ void blur(const float *p, float *r, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) r[c] = p[c - 1] + p[c] + p[c + 1];
}
void launch_first(const float *in, float *p, int n) {
  dim3 grid((n + 255) / 256);
  first<<<grid, 256>>>(in, p, n);
}
void launch_blur(const float *src, float *dst, int count) {
  blur<<<dim3((count + 255) / 256), 256>>>(src, dst, count);
  CHECK_LAST_ERROR();
}

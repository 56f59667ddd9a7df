// Code generation: a complex fusion whose producer runs over a halo layer
// into a shared-memory tile (one-dimensional block of 256 threads) before a
// barrier, next to a launch left alone. (blur reads p at two neighbours,
// which by default are recomputed instead: --recompute-neighbours=0 keeps
// the tile.)
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/two-new-kernels.json --recompute-neighbours=0 -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void first(const float *in, float *p, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n) p[c] = 2.0f * in[c];
}
__global__ void second(const float *in, float *q, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n) q[c] = in[c] + 1.0f;
}
__global__ void blur(const float *p, float *r, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > 0 && c < n - 1) r[c] = p[c - 1] + p[c] + p[c + 1];
}

void run(const float *in, float *p, float *q, float *r, float *s, int n) {
  first<<<(n + 255) / 256, 256>>>(in, p, n);
  second<<<(n + 255) / 256, 256>>>(in, q, n);
  blur<<<(n + 255) / 256, 256>>>(p, r, n);
}

// CHECK: static __device__ __forceinline__ void __lo_body_first_in_fused_0(const float *in, float *p, int n, float *__lo_tile_p, unsigned char *__lo_set_p, unsigned __lo_ts, bool __lo_own, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;
// CHECK: if (c < n) __lo_tile_p[__lo_ts] = 2.0f * in[c], __lo_set_p[__lo_ts] = 1, __lo_own ? (void)(p[c] = __lo_tile_p[__lo_ts]) : (void)0;
// CHECK: r[c] = (__lo_set_p[(int)threadIdx.x] ? __lo_tile_p[(int)threadIdx.x] : p[c - 1]) + (__lo_set_p[(int)threadIdx.x + 1] ? __lo_tile_p[(int)threadIdx.x + 1] : p[c]) + (__lo_set_p[(int)threadIdx.x + 2] ? __lo_tile_p[(int)threadIdx.x + 2] : p[c + 1]);
// CHECK: // Complex fusion of first+blur (launchopt fuse).
// CHECK-NEXT: // On chip: shared-memory tiles: p (halo 1).
// CHECK-NEXT: __global__ void __lo_fused_0(const float *__lo_arr_in, float *__lo_arr_p, int __lo_m0_n, float *__lo_arr_r, int __lo_m1_n) {
// CHECK-NEXT: __shared__ float __lo_tile_p[258];
// CHECK: // first over 1 halo layer(s) into shared memory: read at neighbours below.
// CHECK: __lo_body_first_in_fused_0(__lo_arr_in, __lo_arr_p, __lo_m0_n, __lo_tile_p, __lo_set_p, __lo__t, __lo__s < 256u, blockIdx, make_uint3(__lo__x, __lo__y, 0));
// CHECK: __syncthreads();
// CHECK-NEXT: __lo_body_blur_in_fused_0(__lo_arr_p, __lo_arr_r, __lo_m1_n, __lo_tile_p, __lo_set_p, blockIdx, threadIdx);
// CHECK-LABEL: void run(
// CHECK-NEXT: __lo_fused_0<<<(n + 255) / 256, 256>>>(in, p, n, r, n);
// CHECK-NEXT: second<<<(n + 255) / 256, 256>>>(in, q, n);
// CHECK-NEXT: }

// REMARK: remark: fuse applied to launch of 'first' (new kernel: '__lo_fused_0' (complex fusion of first+blur; shared-memory tiles: p (halo 1)))
// REMARK: remark: not fused: no feasible fusion lowers the projected time

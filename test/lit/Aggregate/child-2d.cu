// A 2D child: grid and block are kept as dim3 in the record; the aggregated
// block recovers the 2D indices of its original block and thread.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

__global__ void blur(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] *= 0.5f;
}

__global__ void parent(float *img, const int *widths, int h) {
  int w = widths[threadIdx.x];
  blur<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(img, w, h);
}

// CHECK-LABEL: static __device__ void __lo_part_blur(float *img, int w, int h, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK: int y = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-LABEL: __global__ void __lo_agg_blur(
// CHECK: __lo_part_blur(__lo_u.img, __lo_a.w, __lo_u.h, __lo_t.blockIdx, __lo_t.threadIdx,
// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: const dim3 __lo_agrid1 = dim3((w + 15) / 16, (h + 15) / 16);
// CHECK-NEXT: const dim3 __lo_ablock1 = dim3(16, 16);
// CHECK-NEXT: void *__lo_uniform1;
// CHECK-NEXT: void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_blur), &__lo_uniform1);

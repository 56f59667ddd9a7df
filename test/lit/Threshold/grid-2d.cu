// A 2D child grid: the serial copy loops over blocks and threads in y and x
// (stopping x where the guard's x operand ends the threads),
// blockIdx.y and gridDim.y are shadowed, and both dimensions' N are recovered.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void blur(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] *= 0.5f + gridDim.y;
}

// CHECK-LABEL: static __device__ void __lo_thread_blur(float *img, int w, int h, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)
// CHECK-NEXT: {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;
// CHECK-NEXT: const uint3 threadIdx = __lo_threadIdx;
// CHECK-NEXT: const dim3 blockDim = __lo_blockDim;
// CHECK-NEXT: const dim3 gridDim = __lo_gridDim;
// CHECK: int y = blockIdx.y * blockDim.y + threadIdx.y;
// The x loops stop where `x < w` first fails: the guard's x operand.
// CHECK-LABEL: static __device__ bool __lo_thread_exit_blur(
// CHECK: return !(x < w);
// CHECK-LABEL: static __device__ void __lo_serial_blur(float *img, int w, int h, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-NEXT: {
// CHECK-NEXT: for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
// CHECK-NEXT: for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
// CHECK-NEXT: bool __lo_xEnded = false;
// CHECK-NEXT: for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
// CHECK-NEXT: for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
// CHECK-NEXT: for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
// CHECK-NEXT: for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
// CHECK-NEXT: if (__lo_thread_exit_blur(img, w, h, make_uint3(__lo_bx, __lo_by, __lo_bz),
// CHECK-NEXT: make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
// CHECK-NEXT: __lo_xEnded = true;
// CHECK-NEXT: break;
// CHECK-NEXT: }
// CHECK-NEXT: __lo_thread_blur(img, w, h, make_uint3(__lo_bx, __lo_by, __lo_bz),
// CHECK-NEXT: make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);

__global__ void parent(float *img, const int *widths, int h) {
  int w = widths[threadIdx.x];
  dim3 block(16, 16);
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  blur<<<grid, block>>>(img, w, h);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: const auto __lo_n1_x = (w);
// CHECK-NEXT: const auto __lo_n1_y = (h);
// CHECK-NEXT: const dim3 __lo_grid1 = grid;
// CHECK-NEXT: const dim3 __lo_block1 = block;
// CHECK-NEXT: const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)(__lo_n1_y) * (long long)__lo_grid1.z * __lo_block1.z;
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
// CHECK-NEXT: blur<<<__lo_grid1, __lo_block1>>>(img, w, h);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_blur(img, w, h, __lo_grid1, __lo_block1);

// REMARK: grid-2d.cu:48:3: remark: threshold applied to launch of 'blur'
// REMARK-SAME: threads: x: w ((N + c)/b); y: h ((N + c)/b)

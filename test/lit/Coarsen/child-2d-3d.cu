// 2D and 3D children: only grid.x is divided by LAUNCHOPT_CFACTOR; y and z are
// kept, and the coarsened kernel loops over all three dimensions of the
// original grid.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void blur(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] *= 0.5f;
}

__global__ void volume(float *v, int n) {
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (z < n)
    v[z] += gridDim.z;
}

// CHECK-LABEL: __global__ void __lo_coarse_blur(float *img, int w, int h, const dim3 __lo_originalGrid)
// CHECK-NEXT: {
// CHECK-NEXT: for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
// CHECK-NEXT: for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
// CHECK-NEXT: for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x) {
// CHECK-NEXT: { // one original block
// CHECK-NEXT: const uint3 blockIdx = make_uint3(__lo_bx, __lo_by, __lo_bz);
// CHECK-LABEL: __global__ void __lo_coarse_volume(float *v, int n, const dim3 __lo_originalGrid)

__global__ void parent(float *img, const int *widths, int h) {
  int w = widths[threadIdx.x];
  dim3 block(16, 16);
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  blur<<<grid, block>>>(img, w, h);
  volume<<<dim3(1, 1, h), dim3(1, 1, 8), 0, cudaStreamFireAndForget>>>(img, h);
}

// CHECK-LABEL: __global__ void parent(
// CHECK: const dim3 __lo_cgrid1 = grid;
// CHECK-NEXT: const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
// CHECK-NEXT: __lo_coarse_blur<<<__lo_coarse1, block>>>(img, w, h, __lo_cgrid1);
// CHECK: const dim3 __lo_cgrid2 = dim3(1, 1, h);
// CHECK-NEXT: const dim3 __lo_coarse2((__lo_cgrid2.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid2.y, __lo_cgrid2.z);
// CHECK-NEXT: __lo_coarse_volume<<<__lo_coarse2, dim3(1, 1, 8), 0, cudaStreamFireAndForget>>>(img, h, __lo_cgrid2);

// REMARK: child-2d-3d.cu:35:3: remark: coarsen applied to launch of 'blur'
// REMARK: child-2d-3d.cu:36:3: remark: coarsen applied to launch of 'volume'

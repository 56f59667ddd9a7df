// A template child: the per-block function and the coarsened kernel are
// templates; a launch with explicit arguments keeps them, a launch that
// deduces them gets them written out, read from its arguments' types (`T *`
// gives T; the original grid is not a deduced parameter).
// The early return keeps the body in a per-block function: inside the
// coarsening loop it would skip the next original blocks.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

template <typename T>
__global__ void scale(T *data, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  data[i] *= factor;
}

// CHECK-LABEL: launchopt: one original block of 'scale'
// CHECK: template <typename T>
// CHECK-NEXT: static __device__ void __lo_block_scale(T *data, int n, T factor, const uint3 __lo_blockIdx,
// CHECK: template <typename T>
// CHECK-NEXT: __global__ void __lo_coarse_scale(T *data, int n, T factor, const dim3 __lo_originalGrid)
// CHECK: __lo_block_scale<T>(data, n, factor, make_uint3(__lo_bx, __lo_by, __lo_bz), threadIdx,

template <typename T>
__global__ void parent(T *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  scale<T><<<(n + 127) / 128, 128>>>(data, n, T(2));
  scale<<<(n + 127) / 128, 128>>>(data, n, T(3));
}

template __global__ void parent<float>(float *, const int *);

// CHECK-LABEL: __global__ void parent(T *data, const int *sizes) {
// CHECK: __lo_coarse_scale<T><<<__lo_coarse1, 128>>>(data, n, T(2), __lo_cgrid1);
// CHECK: __lo_coarse_scale<T><<<__lo_coarse2, 128>>>(data, n, T(3), __lo_cgrid2);

// REMARK: template-child.cu:30:3: remark: coarsen applied to launch of 'scale'
// REMARK: template-child.cu:31:3: remark: coarsen applied to launch of 'scale'

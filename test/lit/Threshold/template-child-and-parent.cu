// A template child launched with explicit template arguments from a template
// parent: the serial copy is a template and is called with the same arguments.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

template <typename T>
__global__ void scale(T *data, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

template <typename T>
__global__ void parent(T *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  scale<T><<<(n + 127) / 128, 128>>>(data, n, T(2));
}

template __global__ void parent<float>(float *, const int *);
template __global__ void parent<double>(double *, const int *);

// CHECK: static __device__ void __lo_thread_scale(T *data, int n, T factor, const uint3 __lo_blockIdx
// CHECK: static __device__ void __lo_serial_scale(T *data, int n, T factor, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK: __lo_thread_scale<T>(data, n, factor, make_uint3(
// CHECK-LABEL: __global__ void parent(T *data, const int *sizes) {
// CHECK: scale<T><<<__lo_grid1, __lo_block1>>>(data, n, T(2));
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_scale<T>(data, n, T(2), __lo_grid1, __lo_block1);

// REMARK: template-child-and-parent.cu:18:3: remark: threshold applied to launch of 'scale'

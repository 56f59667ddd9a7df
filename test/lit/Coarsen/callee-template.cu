// A template child whose call to a template callee reading threadIdx depends
// on the template parameter (unresolved until instantiation): the one
// function of that name gets a shadow copy with its template header, and the
// dependent call is redirected to it.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

template <typename T>
__device__ T &element(T *data) {
  return data[blockIdx.x * blockDim.x + threadIdx.x];
}

// CHECK-LABEL: // launchopt: 'element' for copied kernel bodies
// CHECK: template <typename T>
// CHECK-NEXT: __device__ T &__lo_sh_element(T *data, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)

template <typename T>
__global__ void scale(T *data, T factor) {
  element(data) *= factor;
}

// CHECK-LABEL: __global__ void __lo_coarse_scale(T *data, T factor, const dim3 __lo_originalGrid)
// CHECK: { // one original block
// CHECK: __lo_sh_element(data, blockIdx, threadIdx, blockDim, gridDim) *= factor;

template <typename T>
__global__ void parent(T *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  scale<T><<<n / 128, 128>>>(data, T(2));
}

template __global__ void parent<float>(float *, const int *);

// REMARK: callee-template.cu:[[@LINE-5]]:3: remark: coarsen applied to launch of 'scale'

// A template child calling a template callee that reads threadIdx, with
// arguments that depend on the template parameter: the shadow copy keeps the
// template header and the aggregated child's part function calls it.
// RUN: %launchopt --aggregate=warp %s -o %t.cu 2> %t.remarks
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
// CHECK-LABEL: static __device__ void __lo_part_scale(T *data, T factor,
// CHECK: __lo_sh_element(data, blockIdx, threadIdx, blockDim, gridDim) *= factor;

template <typename T>
__global__ void scale(T *data, T factor) {
  element(data) *= factor;
}

template <typename T>
__global__ void parent(T *data, const int *sizes) {
  scale<T><<<sizes[threadIdx.x], 128>>>(data, T(2));
}

template __global__ void parent<float>(float *, const int *);

// REMARK: callee-template.cu:[[@LINE-5]]:3: remark: aggregate applied to launch of 'scale'

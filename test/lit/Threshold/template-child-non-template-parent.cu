// A template child launched from a non-template parent, which Clang 19 drops:
// recovered, thresholded as any launch; the serial copy is a template called
// with the written arguments. The launch the pass leaves (its child uses
// __syncthreads) keeps the user's text byte for byte.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --threshold --coarsen --aggregate=block %s -o %t.tca.cu 2> %t.tca.remarks
// RUN: %FileCheck %s --check-prefix=TCA < %t.tca.remarks
// RUN: %nvcc-compile %t.tca.cu
// RUN: %not grep -q 'recovered-launch[*]/' %t.cu %t.tca.cu

template <typename T>
__global__ void scale(T *data, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

template <typename T>
__global__ void blockSum(T *data) {
  __shared__ T s;
  s = 0;
  __syncthreads();
  data[blockIdx.x] += s;
}

__global__ void parent(float *data, const int *sizes) {
  int n = sizes[threadIdx.x];
  scale<float><<<(n + 127) / 128, 128>>>(data, n, 2.0f);
  blockSum<float><<<1, 32, 0, cudaStreamFireAndForget>>>(data);
}

// CHECK: static __device__ void __lo_serial_scale(T *data, int n, T factor, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-LABEL: __global__ void parent(float *data, const int *sizes) {
// CHECK: if (__lo_threads1 >= LAUNCHOPT_THRESHOLD)
// CHECK-NEXT: scale<float><<<__lo_grid1, __lo_block1>>>(data, n, 2.0f);
// CHECK-NEXT: else
// CHECK-NEXT: __lo_serial_scale<float>(data, n, 2.0f, __lo_grid1, __lo_block1);
// CHECK: {{^}}  blockSum<float><<<1, 32, 0, cudaStreamFireAndForget>>>(data);

// REMARK: template-child-non-template-parent.cu:31:3: remark: threshold applied to launch of 'scale'
// REMARK: template-child-non-template-parent.cu:32:3: remark: not thresholded: child uses __syncthreads
// REMARK-NOT: Clang 19 cannot resolve

// TCA: template-child-non-template-parent.cu:31:3: remark: threshold applied to launch of 'scale'
// TCA: template-child-non-template-parent.cu:31:3: remark: coarsen applied to launch of 'scale'
// TCA: template-child-non-template-parent.cu:31:3: remark: aggregate applied to launch of '__lo_coarse_scale'
// TCA: template-child-non-template-parent.cu:32:3: remark: aggregate applied to launch of '__lo_coarse_blockSum'

// A template callee reading threadIdx: its shadow copy keeps the template
// header, and calls with deduced and with explicit template arguments are
// redirected alike.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

template <typename T>
__device__ T load(const T *p) {
  return p[blockIdx.x * blockDim.x + threadIdx.x];
}

// CHECK-LABEL: // launchopt: 'load' for copied kernel bodies
// CHECK: template <typename T>
// CHECK-NEXT: __device__ T __lo_sh_load(const T *p, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)
// CHECK-NEXT: {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;

__global__ void child(const float *in, const int *w, float *out) {
  out[blockIdx.x] = load(in) * load<int>(w);
}

// CHECK-LABEL: static __device__ void __lo_thread_child(
// CHECK: out[blockIdx.x] = __lo_sh_load(in, blockIdx, threadIdx, blockDim, gridDim) * __lo_sh_load<int>(w, blockIdx, threadIdx, blockDim, gridDim);

__global__ void parent(const float *in, const int *w, float *out, const int *sizes) {
  int n = sizes[threadIdx.x];
  child<<<(n + 31) / 32, 32>>>(in, w, out);
}

// REMARK: callee-template.cu:[[@LINE-3]]:3: remark: threshold applied to launch of 'child'

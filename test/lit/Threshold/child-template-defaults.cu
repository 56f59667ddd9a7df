// A child kernel whose template parameters have defaults: the generated
// copies are templates without the defaults, and each rewritten launch names
// every argument (from the launched specialization, or in a template from a
// default that depends on nothing). A default that depends on another
// parameter, left to it in a template, is refused with the reason.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=block %s -o %t.a.cu 2> /dev/null
// RUN: grep -v '^// [A-Z0-9-]*:' %t.a.cu | %FileCheck %s --check-prefix=AGG
// RUN: %nvcc-compile %t.a.cu
// RUN: %launchopt --threshold --coarsen --aggregate=grid %s -o %t.tca.cu 2> /dev/null
// RUN: %nvcc-compile %t.tca.cu

// CHECK: template <typename T, int Block = 128>
// CHECK-NEXT: __global__ void visit(
// CHECK: template <typename T, int Block>
// CHECK-NEXT: static __device__ void __lo_serial_visit(
// AGG: template <typename T, int Block>
// AGG: struct __lo_args_visit {
template <typename T, int Block = 128>
__global__ void visit(T *out, int base, int n) {
  int i = blockIdx.x * Block + threadIdx.x;
  if (i < n)
    out[base + i] += T(1);
}

template <typename T, int Block = sizeof(T) * 32>
__global__ void sized(T *out, int n) {
  int i = blockIdx.x * Block + threadIdx.x;
  if (i < n)
    out[i] = T(0);
}

// CHECK-LABEL: __global__ void expand(
// CHECK: __lo_serial_visit<float, 128>(out, t * 1024, n,
// AGG-LABEL: static __device__ void __lo_part_expand(
// AGG: sizeof(__lo_args_visit<float, 128>)
__global__ void expand(float *out, const int *len, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m)
    return;
  int n = len[t];
  if (n > 0)
    visit<float><<<(n + 127) / 128, 128>>>(out, t * 1024, n);
}

// CHECK-LABEL: __global__ void texpand(
// CHECK: __lo_serial_visit<T, (int)128>(out, t * 1024, n,
// CHECK: sized<T><<<(n + 127) / 128, 128>>>(out + t * 1024, n);
template <typename T> __global__ void texpand(T *out, const int *len, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m)
    return;
  int n = len[t];
  if (n > 0)
    visit<T><<<(n + 127) / 128, 128>>>(out, t * 1024, n);
  sized<T><<<(n + 127) / 128, 128>>>(out + t * 1024, n);
}
// REMARKS: child-template-defaults.cu:[[@LINE-2]]:3: remark: not thresholded: the launch leaves template parameter 'Block' of the child to its default or to deduction in a template, where the generated copies cannot name it: write the template arguments out

int main() {
  float *out;
  int *len;
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&len, 4096);
  expand<<<1, 32>>>(out, len, 32);
  texpand<float><<<1, 32>>>(out, len, 32);
  cudaDeviceSynchronize();
  return 0;
}

// Sequences behind host wrappers: main's time loop calls one wrapper per
// kernel, kernels and wrappers in an included .cu. The wrapper calls are
// inlined with their arguments (and the wrapper's local grid) substituted,
// the loop body is the sequence, the new kernel goes into this file and the
// included file stays as it is. A check of the last error after a launch
// does not keep the wrapper from being inlined.
// RUN: cp %S/Inputs/wrapped-kernels.cu %t.orig.cu
// RUN: %launchopt fuse %s --function=main -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: cmp %S/Inputs/wrapped-kernels.cu %t.orig.cu
// RUN: %nvcc-compile -I %S %t.cu

#include "Inputs/wrapped-kernels.cu"

// CHECK: #include "Inputs/wrapped-kernels.cu"
// CHECK: static __device__ __forceinline__ void __lo_body_first_in_fused_0(
// CHECK: {{^}}__global__ void __lo_fused_0(const float *__lo_arr_in, float *__lo_arr_p, int __lo_m0_n, float *__lo_arr_r, int __lo_m1_n)
// CHECK: {{^}}int main() {
// CHECK: for (int t = 0; t < steps; ++t) {
// CHECK-NEXT: cudaMemcpy(in, r, n * sizeof(float), cudaMemcpyDeviceToDevice);
// CHECK-NEXT: __lo_fused_0<<<dim3((n + 255) / 256), 256>>>(in, p, n, r, n);
// CHECK-NEXT: }
// CHECK-NEXT: launch_first(in, p, n++);

// REMARK: genetic search: 2 kernels, 3 arrays
// REMARK: wrapped-kernels.cu:23:3: remark: fuse applied to launch of 'first' (new kernel: '__lo_fused_0'
// REMARK: wrapped-kernels.cu:26:3: remark: fuse applied to launch of 'blur' (new kernel: '__lo_fused_0'
// REMARK: wrapped-kernels.cu:23:3: remark: not fused: the call of 'launch_first' at line [[@LINE+10]] is not inlined: argument 2 has side effects

int main() {
  float *in, *p, *r;
  int n = 1024, steps = 10;
  for (int t = 0; t < steps; ++t) {
    cudaMemcpy(in, r, n * sizeof(float), cudaMemcpyDeviceToDevice);
    launch_first(in, p, n);
    launch_blur(p, r, n);
  }
  launch_first(in, p, n++);
}

// Code generation through registers: read-only data several bodies read at
// the thread's own site is loaded once into a register the bodies share, and
// a result read at the producer's own site passes through a register too.
// RUN: %launchopt fuse %s --use-plan=%S/Inputs/registers.json --report=%t.report -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc-compile %t.cu

__global__ void scale(const float *in, float *a, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n)
    a[c] = 2.0f * in[c];
}
__global__ void shift(const float *in, float *b, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n)
    b[c] = in[c] + in[c + 1];
}
__global__ void combine(const float *a, const float *in, float *r, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n)
    r[c] = a[c] * in[c];
}

void run(const float *in, float *a, float *b, float *r, int n) {
  scale<<<(n + 255) / 256, 256>>>(in, a, n);
  shift<<<(n + 255) / 256, 256>>>(in, b, n);
  combine<<<(n + 255) / 256, 256>>>(a, in, r, n);
}

// CHECK-LABEL: void __lo_body_scale_in_fused_0(const float *in, float *a, int n, float &__lo_reg_in, bool &__lo_has_in, float &__lo_reg_a, bool &__lo_has_a, const uint3 __lo_blockIdx
// CHECK: a[c] = __lo_reg_a = 2.0f * (__lo_has_in ? __lo_reg_in : (__lo_has_in = true, __lo_reg_in = in[c])), __lo_has_a = true;
// CHECK-LABEL: void __lo_body_shift_in_fused_0(
// The neighbour read stays in GMEM (L1); the own-site read uses the register.
// CHECK: b[c] = (__lo_has_in ? __lo_reg_in : (__lo_has_in = true, __lo_reg_in = in[c])) + in[c + 1];
// CHECK-LABEL: void __lo_body_combine_in_fused_0(
// CHECK: r[c] = (__lo_has_a ? __lo_reg_a : (__lo_has_a = true, __lo_reg_a = a[c])) * (__lo_has_in ? __lo_reg_in : (__lo_has_in = true, __lo_reg_in = in[c]));
// CHECK: // Complex fusion of scale+shift+combine (launchopt fuse).
// CHECK-NEXT: // On chip: registers: in a.
// CHECK-NEXT: __global__ void __lo_fused_0(
// CHECK-NEXT: float __lo_reg_in;
// CHECK-NEXT: bool __lo_has_in = false;
// CHECK-NEXT: float __lo_reg_a;
// CHECK-NEXT: bool __lo_has_a = false;
// CHECK-NEXT: __lo_body_scale_in_fused_0(__lo_arr_in, __lo_arr_a, __lo_m0_n, __lo_reg_in, __lo_has_in, __lo_reg_a, __lo_has_a, blockIdx, threadIdx);
// No barrier: the dependence is at the thread's own site.
// CHECK-NOT: __syncthreads
// CHECK: __lo_body_combine_in_fused_0(

// REPORT: launch 0 code generation: registers: in a

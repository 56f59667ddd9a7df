// A kernel that updates J in place (`J[i] = J[i] + ...`) after another read
// J at its neighbours: fused, a thread would overwrite what a neighbour
// still reads. Without renaming the launches stay apart and the remark says
// what would allow them; with it (and the plan forced: the projection
// weighs the copy against what fusion saves), J's incoming values get a
// buffer of their own, copied before the fused launch, which the reader
// reads, while the update goes to J itself.
// RUN: %launchopt fuse %s --function=step -o /dev/null 2>&1 | %FileCheck %s --check-prefix=APART
// RUN: %launchopt fuse %s --function=step --use-plan=%S/Inputs/gradient-update.json --rename-expandable --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc-compile %t.cu

// APART: remark: not fused: not fused with 'update': 'update' overwrites J that another thread of the fused kernel still reads, and J keeps one buffer (renaming, --rename-expandable, copies it for the readers)

// REPORT: renaming copies before the kernel:
// REPORT: array J renamed in segment 0: version 0 in a new buffer copied from its allocation, version 1 (the last) in the allocation itself

// CHECK-LABEL: {{^}}__global__ void __lo_fused_0(float *__lo_J_v0, float *__lo_arr_G, int __lo_m0_n, float *__lo_arr_J, int __lo_m1_n, float __lo_m1_rate) {
// CHECK: {{^}}  if (blockIdx.x * blockDim.x + threadIdx.x >= 1u)
// CHECK-NEXT: __lo_body_gradient_in_fused_0(__lo_J_v0,
// CHECK: {{^}}  __lo_body_update_in_fused_0(__lo_arr_J,
// CHECK: auto *const __lo_J_v0 = __lo_renamed_0.rename(J);
// CHECK-NEXT: if (__lo_renamed_0.ok()) {
// CHECK-NEXT: __lo_fused_0<<<n / 256, 256>>>(__lo_J_v0, G, n, J, n, rate);

__global__ void gradient(const float *J, float *G, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  G[i] = i + 1 < n ? J[i + 1] - J[i] : 0.0f;
}
__global__ void update(float *J, const float *G, int n, float rate) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float back = i > 0 ? G[i - 1] : 0.0f;
  J[i] = J[i] + rate * (G[i] - back);
}
void step(float *J, float *G, int n, float rate) {
  gradient<<<n / 256, 256>>>(J, G, n);
  update<<<n / 256, 256>>>(J, G, n, rate);
}

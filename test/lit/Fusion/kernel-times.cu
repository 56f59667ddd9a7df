// Measured kernel times from a profiling run are the original times of the
// model (paper Table III, P(K)): without them the two kernels fuse; with
// times so short that no fused kernel can beat their sum, they do not, and
// the report gives the measured times.
// RUN: %launchopt fuse %s --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s --check-prefix=PROJECTED
// RUN: %launchopt fuse %s --search=exact --quiet --kernel-times=%S/Inputs/kernel-times.csv --report=- -o %t.cu 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=FOUND < %t.err
// RUN: %launchopt fuse %s --search=exact --quiet --kernel-times=%S/Inputs/kernel-times-nsys.csv --report=- -o %t.cu 2>/dev/null | %FileCheck %s
// RUN: %launchopt fuse %s --search=none --quiet --kernel-times=%S/Inputs/kernel-times-hooks.txt --write-problem=- -o %t.cu | %FileCheck %s --check-prefix=HOOKS
// RUN: %not %launchopt fuse %s --kernel-times=%S/Inputs/kernel-times-bad.csv -o %t.cu 2>&1 | %FileCheck %s --check-prefix=BAD

__global__ void twice(const float *in, float *p) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  p[c] = 2.0f * in[c];
}
__global__ void plus(const float *in, float *q) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  q[c] = in[c] + 1.0f;
}

void run(float *in, float *p, float *q, int n) {
  twice<<<n / 256, 256>>>(in, p);
  plus<<<n / 256, 256>>>(in, q);
}

// PROJECTED: fusion plan: 2 of 2 kernels fused into 1 new kernels

// CHECK: fusion plan: 0 of 2 kernels fused into 0 new kernels
// CHECK-NEXT: projected time 123.003 us (original 123.003 us, 1.00x)
// CHECK-NEXT: launch 0: twice (unfused), 123.000 us measured
// CHECK-NEXT: launch 1: plus (unfused), 0.003 us measured

// FOUND: kernel times: measured times of 2 of 2 kernels

// The hooks' times are in milliseconds.
// HOOKS: "measured_seconds": {{0\.000123[0-9]*}},
// HOOKS-NEXT: "name": "twice",
// HOOKS: "measured_seconds": {{5\.0[0-9]*e-05}},
// HOOKS-NEXT: "name": "plus",

// BAD: kernel times, line 2: 'fast' is not a time in seconds

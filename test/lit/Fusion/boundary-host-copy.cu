// A host copy between two launches is a constraint: the kernels on either
// side never fuse, and the report names the copy. The same launches without
// the copy fuse (the control), so the check can fail.
// RUN: %launchopt fuse %s --function=together --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s --check-prefix=TOGETHER
// RUN: %launchopt fuse %s --function=copied --search=exact --quiet --report=- -o %t.cu 2>/dev/null | %FileCheck %s
// RUN: %launchopt fuse %s --function=copied --search=none --quiet --write-problem=- -o %t.cu | %FileCheck %s --check-prefix=PROBLEM

__global__ void twice(const float *in, float *p) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  p[c] = 2.0f * in[c];
}
__global__ void plus(const float *in, float *q) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  q[c] = in[c] + 1.0f;
}

void together(float *in, float *p, float *q, int n) {
  twice<<<n / 256, 256>>>(in, p);
  plus<<<n / 256, 256>>>(in, q);
}

void copied(float *in, float *p, float *q, const float *host, int n) {
  twice<<<n / 256, 256>>>(in, p);
  cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);
  plus<<<n / 256, 256>>>(in, q);
}

// TOGETHER: fusion plan: 2 of 2 kernels fused into 1 new kernels
// TOGETHER-NOT: segment

// CHECK: fusion plan: 0 of 2 kernels fused into 0 new kernels; 2 launches instead of 2
// CHECK: segment 1 from 'plus': host copy 'cudaMemcpy' at line 24 between the launches; no kernel fuses across it
// CHECK: launch 0: twice (unfused)
// CHECK: launch 1: plus (unfused)

// PROBLEM: "name": "plus",
// PROBLEM-NEXT: "registers"
// PROBLEM: "segment": 1,
// PROBLEM-NEXT: "segment_boundary": "host copy 'cudaMemcpy' at line 24 between the launches",

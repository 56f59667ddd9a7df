// The search with no kernel in the sequence (every launch left out) returns
// the empty plan and the remarks say why, instead of crashing.
// RUN: %launchopt fuse %s --function=run -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu

// CHECK: genetic search: 0 kernels, 0 arrays
// CHECK: search-empty-sequence.cu:[[@LINE+8]]:3: remark: not fused: pointer parameter 'in' is used other than by subscript

__global__ void walk(const float *in, float *out, int n) {
  const float *p = in + 1;
  out[0] = *p;
}

void run(const float *in, float *out, int n) {
  walk<<<1, 1>>>(in, out, n);
}

// One stencil kernel from an included .cu launched in a time loop with
// ping-pong buffers swapped on the host (the heat shape): the loop body is a
// sequence of one launch, so the plan keeps it alone, the remark says why,
// and the source is left as it is.
// RUN: cp %S/Inputs/heat-step.cu %t.orig.cu
// RUN: %launchopt fuse %s --function=main --plan=%t.plan --report=%t.report -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: cmp %s %t.cu
// RUN: cmp %S/Inputs/heat-step.cu %t.orig.cu

#include "Inputs/heat-step.cu"
#include <utility>

// CHECK: genetic search: 1 kernels, 2 arrays
// CHECK: time-loop-single-kernel.cu:[[@LINE+13]]:5: remark: not fused: the only launch of its sequence{{$}}

// PLAN: "kind": "original",
// PLAN: "members": [
// PLAN-NEXT: "heat_step"

// REPORT: fusion plan: 0 of 1 kernels fused into 0 new kernels; 1 launches instead of 1

int main() {
  float *in, *out;
  int nx = 1024, ny = 1024;
  dim3 block(32, 8), grid(nx / 32, ny / 8);
  for (int step = 0; step < 100; ++step) {
    heat_step<<<grid, block>>>(in, out, nx, ny, 0.1f);
    std::swap(in, out);
  }
}

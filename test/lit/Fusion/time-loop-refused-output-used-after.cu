// Temporal fusion leaves the buffer passed as output holding another step's
// values after the loop; a program that reads it there keeps its loop, and
// the remark names the variable. A loop without a swap is not a time loop
// of ping-pong buffers.
// RUN: %launchopt fuse %s --function=main -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: cmp %s %t.cu

#include "Inputs/heat-step.cu"
#include <utility>

// CHECK: time-loop-refused-output-used-after.cu:[[@LINE+10]]:5: remark: not fused: the only launch of its sequence ({{.*}}); not fused over time: 'out' is used after the loop, where it would hold another step's values
// CHECK: time-loop-refused-output-used-after.cu:[[@LINE+14]]:5: remark: not fused: the only launch of its sequence ({{.*}}); not fused over time: the loop's body swaps no buffers after the launch (std::swap)

void use(float *);

int main() {
  float *in, *out;
  int nx = 1024, ny = 1024;
  dim3 block(32, 8), grid(nx / 32, ny / 8);
  for (int step = 0; step < 10; ++step) {
    heat_step<<<grid, block>>>(in, out, nx, ny, 0.1f);
    std::swap(in, out);
  }
  use(out);
  for (int step = 0; step < 10; ++step) {
    heat_step<<<grid, block>>>(in, out, nx, ny, 0.1f);
  }
}

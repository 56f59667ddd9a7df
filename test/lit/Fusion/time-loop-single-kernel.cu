// One stencil kernel from an included .cu launched in a time loop with
// ping-pong buffers swapped on the host (the heat shape). The projection,
// with the H100's measured rate of register recomputation, leaves it: the
// recomputed evaluations cost more than the step of GMEM they save (heat3d
// fused over 2 steps ran 4.8 times slower per step). Forced to 2 steps it is
// fused over time, the neighbours of the first step recomputed in
// registers; the loop launches and swaps once per group and runs the
// original for a step that fills no group.
// RUN: cp %S/Inputs/heat-step.cu %t.orig.cu
// RUN: %launchopt fuse %s --function=main -o %t.default.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=DEFAULT < %t.remarks
// RUN: cmp %s %t.default.cu
// RUN: %launchopt fuse %s --function=main --temporal-steps=2 --plan=%t.plan -o %t.cu 2> %t.two.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.two.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile -I %S %t.cu
// RUN: %launchopt fuse %s --function=main --temporal-steps=3 -o %t.three.cu 2> /dev/null
// RUN: %FileCheck %s --check-prefix=THREE < %t.three.cu
// RUN: %nvcc-compile -I %S %t.three.cu
// RUN: %launchopt fuse %s --function=main --temporal-steps=1 -o %t.off.cu 2> /dev/null
// RUN: cmp %s %t.off.cu
// RUN: cmp %S/Inputs/heat-step.cu %t.orig.cu

#include "Inputs/heat-step.cu"
#include <utility>

// DEFAULT: time-loop-single-kernel.cu:[[@LINE+29]]:5: remark: not fused: the only launch of its sequence{{.*}}; not fused over time: no number of steps up to 4 is projected faster per step than the original (2 steps: {{[0-9.]+}} us per step against {{[0-9.]+}} us)
// REMARK: time-loop-single-kernel.cu:[[@LINE+28]]:5: remark: fuse applied to launch of 'heat_step' (new kernel: '__lo_temporal_heat_step' (temporal fusion of 2 steps per launch

// CHECK: static constexpr int __lo_tsteps0 = 2;
// The reads of the input go through the value after the step before, at the
// neighbour the offset names; the store only in the last step.
// CHECK: __lo_tstep_heat_step(const float *in, float *out, int nx, int ny, float alpha, float &__lo_tvalue
// CHECK: (void)(__lo_tvalue = __lo_tread_heat_step<__lo_tS - 1, __lo_tK>(in, out, nx, ny, alpha, blockIdx, threadIdx, 0, 0, 0, (c)) + alpha * (__lo_tread_heat_step<__lo_tS - 1, __lo_tK>({{.*}}, -1, 0, 0, (c - 1)) + {{.*}}, 1, 0, 0, (c + 1)) + {{.*}}, 0, -1, 0, (c - nx)) + {{.*}}, 0, 1, 0, (c + nx)) - 4.0f * {{.*}}, 0, 0, 0, (c))), __lo_twritten = true, __lo_tS == __lo_tK ? (void)(out[c] = __lo_tvalue) : (void)0);
// A site the neighbour does not write keeps the value of the buffer that
// step writes.
// CHECK: return __lo_twritten ? __lo_tvalue : __lo_tJ % 2 ? out[__lo_te] : in[__lo_te];
// CHECK: __global__ void __lo_temporal_heat_step(
// CHECK: __lo_tstep_heat_step<__lo_tK, __lo_tK>(
// CHECK: const bool __lo_tgroup0 = (step - 0) / __lo_tsteps0 * __lo_tsteps0 + __lo_tsteps0 <= (101) - 0;
// CHECK-NEXT: const bool __lo_tfirst0 = (step - 0) % __lo_tsteps0 == 0;
// CHECK-NEXT: if (!__lo_tgroup0)
// CHECK-NEXT: heat_step<<<grid, block>>>(in, out, nx, ny, 0.1f);
// CHECK-NEXT: else if (__lo_tfirst0)
// CHECK-NEXT: __lo_temporal_heat_step<__lo_tsteps0><<<grid, block>>>(in, out, nx, ny, 0.1f);
// CHECK-NEXT: if (!__lo_tgroup0 || __lo_tfirst0)
// CHECK-NEXT: std::swap(in, out);

// THREE: static constexpr int __lo_tsteps0 = 3;

int main() {
  float *in, *out;
  int nx = 1024, ny = 1024;
  dim3 block(32, 8), grid(nx / 32, ny / 8);
  for (int step = 0; step < 101; ++step) {
    heat_step<<<grid, block>>>(in, out, nx, ny, 0.1f);
    std::swap(in, out);
  }
}

// --temporal-tiles: the heat shape fused over time in shared-memory tiles.
// The projection (each evaluation beyond one per site at the measured rate
// of recomputation, a barrier per step) leaves it by default; forced, the
// kernel computes step 1 over the block widened by the reach of the steps
// after it into a tile, a barrier, and the last step at the block's own
// sites from that tile; the launch passes the tiles' dynamic shared memory.
// RUN: %launchopt fuse %s --function=main --temporal-tiles -o %t.default.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=DEFAULT < %t.remarks
// RUN: cmp %s %t.default.cu
// RUN: %launchopt fuse %s --function=main --temporal-tiles --temporal-steps=2 -o %t.cu 2> %t.two.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.two.remarks
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile -I %S %t.cu
// RUN: %launchopt fuse %s --function=main --temporal-tiles --temporal-steps=3 -o %t.three.cu 2> /dev/null
// RUN: %FileCheck %s --check-prefix=THREE < %t.three.cu
// RUN: %nvcc-compile -I %S %t.three.cu

#include "Inputs/heat-step.cu"
#include <utility>

// DEFAULT: time-loop-tiles.cu:[[@LINE+37]]:5: remark: not fused: the only launch of its sequence{{.*}}; not fused over time: no number of steps up to 4 is projected faster per step than the original (2 steps: {{[0-9.]+}} us per step against {{[0-9.]+}} us)
// REMARK: time-loop-tiles.cu:[[@LINE+36]]:5: remark: fuse applied to launch of 'heat_step' (new kernel: '__lo_ttemporal_heat_step' (temporal fusion of 2 steps per launch, LAUNCHOPT_TEMPORAL_STEPS; earlier steps in shared-memory tiles; projected

// CHECK: static constexpr int __lo_tsteps0 = 2;
// CHECK: extern __shared__ __align__(16) unsigned char __lo_ttilemem[];
// The widest tile: the 32x8 block widened by one reach per step after step 1.
// CHECK: return (__lo_td.x + 2 * (__lo_tK - 1) * 1) * (__lo_td.y + 2 * (__lo_tK - 1) * 1) * (__lo_td.z + 2 * (__lo_tK - 1) * 0);
// A step's reads go to the tile of the step before, at the reader's offset
// from the block's first site, widened by the reach still to come.
// CHECK: __lo_ttstep_heat_step(const float *in, float *out, int nx, int ny, float alpha, float &__lo_tvalue
// CHECK: __lo_ttread_heat_step<__lo_tS - 1, __lo_tK>({{.*}}, -1, 0, 0, (c - 1))
// CHECK: return in[__lo_te];
// CHECK: const int __lo_tlx = int((long long)__lo_tb.x * blockDim.x + __lo_ti.x + __lo_tdx - (long long)blockIdx.x * blockDim.x) + __lo_twx;
// CHECK: return __lo_twritten[__lo_tl] ? __lo_ttile[__lo_tl] : __lo_tJ % 2 ? out[__lo_te] : in[__lo_te];
// Every thread evaluates the widened block's sites in turn, then the barrier.
// CHECK: __lo_tl < __lo_ttx * __lo_tty * __lo_ttz; __lo_tl += blockDim.x * blockDim.y * blockDim.z) {
// CHECK: __lo_ttstep_heat_step<__lo_tJ, __lo_tK>(
// CHECK: __syncthreads();
// CHECK-NEXT: __lo_ttlevel_heat_step<__lo_tJ + 1, __lo_tK>(
// CHECK: __global__ void __lo_ttemporal_heat_step(
// CHECK-NEXT: __lo_ttlevel_heat_step<1, __lo_tK>(
// CHECK: __lo_ttstep_heat_step<__lo_tK, __lo_tK>({{.*}}, blockIdx, threadIdx);
// CHECK: else if (__lo_tfirst0) {
// CHECK-NEXT: const dim3 __lo_tblock0 = dim3(block);
// CHECK-NEXT: __lo_ttemporal_heat_step<__lo_tsteps0><<<grid, __lo_tblock0, 2 * __lo_ttcells_heat_step(__lo_tblock0, __lo_tsteps0) * (sizeof(float) + 1)>>>(in, out, nx, ny, 0.1f);
// CHECK-NEXT: }
// CHECK-NEXT: if (!__lo_tgroup0 || __lo_tfirst0)
// CHECK-NEXT: std::swap(in, out);

// THREE: static constexpr int __lo_tsteps0 = 3;
// THREE: __global__ void __lo_ttemporal_heat_step(

int main() {
  float *in, *out;
  int nx = 1024, ny = 1024;
  dim3 block(32, 8), grid(nx / 32, ny / 8);
  for (int step = 0; step < 101; ++step) {
    heat_step<<<grid, block>>>(in, out, nx, ny, 0.1f);
    std::swap(in, out);
  }
}

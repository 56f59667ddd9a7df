// A launch whose template argument names a constant of the parent's body
// (`unrolled<kPer>` with `constexpr int kPer = 4;`) and a local alias
// (`unrolled<Step::value>`): the functions aggregation, removal and spawn
// write outside the parent cannot name them, so they spell the launched
// specialization's arguments (`unrolled<4>`). Before, nvcc failed on every
// output ("identifier kPer is undefined").
// RUN: %launchopt --aggregate=block %s -o %t-block.cu 2> %t-block.remarks
// RUN: %FileCheck %s --check-prefix=AGG < %t-block.remarks
// RUN: %FileCheck %s --check-prefix=SPELLED < %t-block.cu
// RUN: %nvcc-compile %t-block.cu
// RUN: %launchopt --threshold --coarsen --aggregate=grid %s -o %t-tca.cu 2> %t-tca.remarks
// RUN: %nvcc-compile %t-tca.cu
// RUN: %launchopt --remove-launches=T3 %s -o %t-t3.cu 2> %t-t3.remarks
// RUN: %FileCheck %s --check-prefix=T3 < %t-t3.remarks
// RUN: %nvcc-compile %t-t3.cu
// RUN: %launchopt --threshold --spawn --coarsen --aggregate=block %s -o %t-stca.cu 2> %t-stca.remarks
// RUN: %nvcc-compile %t-stca.cu
#include <type_traits>

template <int N>
__global__ void unrolled(const float *__restrict__ in, float *__restrict__ out, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * N;
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (base + k < n)
      out[base + k] = in[base + k] * 2.0f;
}

__global__ void parent(const float *const *ins, float **outs, const int *lens, int m) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m)
    return;
  const int n = lens[r];
  constexpr int kPer = 4;
  using Step = std::integral_constant<int, 2>;
  if (n > 1024)
    unrolled<kPer><<<(n + 256 * kPer - 1) / (256 * kPer), 256>>>(ins[r], outs[r], n);
  else if (n > 256)
    unrolled<Step::value><<<(n + 511) / 512, 256>>>(ins[r], outs[r], n);
  else if (n > 0)
    unrolled<1><<<(n + 255) / 256, 256>>>(ins[r], outs[r], n);
}

int main() {
  parent<<<1, 32>>>(nullptr, nullptr, nullptr, 0);
  return 0;
}

// AGG: remark: aggregate applied to launch of 'unrolled'
// AGG: remark: aggregate applied to launch of 'unrolled'
// AGG: remark: aggregate applied to launch of 'unrolled'
// SPELLED-NOT: __lo_launch_unrolled<{{kPer|Step}}
// SPELLED: __lo_launch_unrolled<4>
// SPELLED: __lo_launch_unrolled<2>
// SPELLED-NOT: __lo_launch_unrolled<{{kPer|Step}}
// T3: :37:5: remark: remove-launches applied to launch of 'unrolled'
// T3: :39:5: remark: not removed: the parent launches 'unrolled' with other template arguments at line 37

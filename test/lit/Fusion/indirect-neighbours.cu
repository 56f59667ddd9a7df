// Indirect neighbours: flux reads q at offsets loaded from an index array
// (nb), which no halo covers. It cannot fuse with the producer of q (that
// would need a grid-wide dependence, so it stays behind its launch and
// reads through global memory); the report says so. The problem records the
// read as indirect.
// RUN: %launchopt fuse %s --function=main --write-problem=%t.json -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %FileCheck %s --check-prefix=PROBLEM < %t.json
// RUN: %nvcc-compile %t.cu

// CHECK: indirect-neighbours.cu:[[@LINE+21]]:5: remark: not fused: not fused with 'flux': 'flux' reads 'q' at an unknown offset (an index array or a computed index) after 'step_factor' writes it
// CHECK: indirect-neighbours.cu:[[@LINE+21]]:5: remark: not fused: not fused with its producer: 'flux' reads 'q' at an unknown offset (an index array or a computed index) after 'step_factor' writes it: only through global memory after a grid-wide dependence, not on chip

// PROBLEM: "name": "flux"
// PROBLEM: "array": "q"
// PROBLEM-NEXT: "halo_radius": 1
// PROBLEM-NEXT: "indirect": true

__global__ void step_factor(const float *v, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = 0.5f * v[i];
}
__global__ void flux(const float *q, const int *nb, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f[i] = q[nb[4 * i]] + q[nb[4 * i + 1]] - 2.0f * q[i];
}

int main() {
  float *v, *q, *f;
  int *nb, n = 1 << 20;
  for (int t = 0; t < 4; ++t) {
    step_factor<<<(n + 255) / 256, 256>>>(v, q, n);
    flux<<<(n + 255) / 256, 256>>>(q, nb, f, n);
  }
}

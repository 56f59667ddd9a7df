// A child defined after its parent in another namespace is left as written:
// its argument structs would have to name its parameter types from the
// parent's namespace.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: grep -c 'child<<<(n + 63) / 64, 64>>>(d, n);' %t.cu

namespace kernels {
__global__ void child(float *d, int n);
}

__global__ void parent(float *d, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  kernels::child<<<(n + 63) / 64, 64>>>(d, n);
}

namespace kernels {
__global__ void child(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}
} // namespace kernels

// REMARK: not-child-after-parent-namespace.cu:14:3: remark: not aggregated: the child is defined after the parent, in another namespace

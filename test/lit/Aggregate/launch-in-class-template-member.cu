// A launch in a member of a class template, reached from a template kernel
// through a template helper: the calls on the object (`g.expand(v)`) are
// dependent in the templates, and name the one member of that name in the
// class template, so the kernel's copy calls the member's shadow copy, which
// takes the scope; every output compiles.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --auto %s -o %t.auto.cu 2> /dev/null
// RUN: %nvcc-compile %t.auto.cu

__global__ void leaf(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.f;
}

// CHECK-LABEL: template <typename T> struct Csr {
// CHECK: __device__ void __lo_sh_expand(int v, const uint3 __lo_blockIdx,
// CHECK: launchopt::reserveRecord(
template <typename T> struct Csr {
  const int *off;
  T *val;
  __device__ void expand(int v) const {
    int n = off[v + 1] - off[v];
    if (n > 32)
      leaf<<<(n + 127) / 128, 128>>>((float *)val + off[v], n);
    else
      for (int k = 0; k < n; ++k)
        val[off[v] + k] += T(1);
  }
};
// REMARKS: launch-in-class-template-member.cu:[[@LINE-6]]:7: remark: aggregate applied to launch of 'leaf' (aggregated-kernel: __lo_agg_leaf, gathered-by: the blocks of the kernels whose copies call the copy of 'expand': 'bfsStep', granularity: block)

// CHECK: g.__lo_sh_expand(v, blockIdx, threadIdx, blockDim, gridDim, __lo_agg{{[0-9]+}});
template <typename T> __device__ void visitAll(const Csr<T> &g, int v) { g.expand(v); }

// CHECK-LABEL: static __device__ void __lo_part_bfsStep(
// CHECK: __lo_sh_visitAll(g, frontier[t], blockIdx, threadIdx, blockDim, gridDim, __lo_agg{{[0-9]+}});
template <typename T> __global__ void bfsStep(Csr<T> g, const int *frontier, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m)
    visitAll(g, frontier[t]);
}

int main() {
  Csr<float> g{nullptr, nullptr};
  bfsStep<float><<<1, 32>>>(g, nullptr, 0);
  cudaDeviceSynchronize();
  return 0;
}

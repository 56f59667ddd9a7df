// Aggregation copies the child's body into the aggregated kernel: calls of
// member accessors that read the built-in index variables go to their
// shadow copies there, a member beside the original for the main file's
// class (with private arrays), a free function taking the object for the
// header's class; static and const members included.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks -- -I%S/../Threshold/Inputs
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile -I %S/../Threshold/Inputs %t.cu

#include "graph-class.cuh"

// CHECK: __device__ int __lo_sh_Graph_edgeOfThread(const Graph &__lo_self,
// CHECK: static __device__ int __lo_sh_Graph_gridThreads(const uint3 __lo_blockIdx,

class Frontier {
public:
  __device__ int mine() const { return items_[blockIdx.x * blockDim.x + threadIdx.x]; }
  static __device__ int lanes() { return blockDim.x; }

private:
  const int *items_;
};

// CHECK-LABEL: __device__ int mine() const
// CHECK: __device__ int __lo_sh_mine(const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim) const
// CHECK: static __device__ int __lo_sh_lanes(const uint3 __lo_blockIdx,

__global__ void child(csr::Graph g, Frontier f, int v, int *out) {
  for (int k = g.edgeOfThread(); k < g.degree(v); k += csr::Graph::gridThreads())
    out[k] = f.mine() + Frontier::lanes();
}

// CHECK-LABEL: static __device__ void __lo_part_child(
// CHECK: for (int k = ::csr::__lo_sh_Graph_edgeOfThread(g, blockIdx, threadIdx, blockDim, gridDim); k < g.degree(v); k += ::csr::__lo_sh_Graph_gridThreads(blockIdx, threadIdx, blockDim, gridDim))
// CHECK-NEXT: out[k] = f.__lo_sh_mine(blockIdx, threadIdx, blockDim, gridDim) + Frontier::__lo_sh_lanes(blockIdx, threadIdx, blockDim, gridDim);

__global__ void parent(csr::Graph g, Frontier f, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  int d = g.degree(v);
  if (d > 0)
    child<<<(d + 31) / 32, 32>>>(g, f, v, out);
}

// REMARK: class-members.cu:[[@LINE-3]]:5: remark: aggregate applied to launch of 'child'

// The same accessors in a class of an included header, which launchopt does
// not edit: each gets a free copy after the #include, in the class's
// namespace, taking the object (const for a const member) before its
// arguments; its body reaches the object through that parameter (`x` and
// `this->x` become `__lo_self.x`), a static member's copy takes no object
// and a class template's member becomes a function template.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks -- -I%S/Inputs
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile -I %S/Inputs %t.cu

#include "graph-class.cuh"

// Declared first: members call each other in any order.
// CHECK-LABEL: #include "graph-class.cuh"
// CHECK: namespace csr {
// CHECK-NEXT: __device__ int __lo_sh_Graph_neighborOfThread(const Graph &__lo_self, int v, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim);
// CHECK-NEXT: }
// CHECK-NEXT: namespace csr {
// CHECK-NEXT: __device__ int __lo_sh_Graph_edgeOfThread(const Graph &__lo_self, const uint3 __lo_blockIdx,
// CHECK: static __device__ int __lo_sh_Graph_gridThreads(const uint3 __lo_blockIdx,
// CHECK: template <typename T>
// CHECK-NEXT: __device__ T &__lo_sh_Values_mine(Values<T> &__lo_self, const uint3 __lo_blockIdx,
// CHECK: __device__ int __lo_sh_Graph_neighborOfThread(const Graph &__lo_self, int v, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK: int k = ::csr::__lo_sh_Graph_edgeOfThread(__lo_self, blockIdx, threadIdx, blockDim, gridDim);
// CHECK-NEXT: return k < __lo_self.degree(v) ? (&__lo_self)->targets[__lo_self.offsets[v] + k] : Graph::kNone;
// CHECK: { return __lo_self.data[threadIdx.x]; }

__global__ void child(csr::Graph g, const csr::Graph *p, int v, int *out, csr::Values<float> vals) {
  for (int k = g.edgeOfThread(); k < g.degree(v); k += csr::Graph::gridThreads())
    out[k] = p->neighborOfThread(v);
  vals.mine() += 1.0f;
}

// CHECK-LABEL: static __device__ void __lo_thread_child(
// CHECK: for (int k = ::csr::__lo_sh_Graph_edgeOfThread(g, blockIdx, threadIdx, blockDim, gridDim); k < g.degree(v); k += ::csr::__lo_sh_Graph_gridThreads(blockIdx, threadIdx, blockDim, gridDim))
// CHECK-NEXT: out[k] = ::csr::__lo_sh_Graph_neighborOfThread(*(p), v, blockIdx, threadIdx, blockDim, gridDim);
// CHECK-NEXT: ::csr::__lo_sh_Values_mine(vals, blockIdx, threadIdx, blockDim, gridDim) += 1.0f;

__global__ void parent(csr::Graph g, const csr::Graph *p, int *out, csr::Values<float> vals) {
  int v = threadIdx.x;
  int d = g.degree(v);
  child<<<(d + 31) / 32, 32>>>(g, p, v, out, vals);
}

// REMARK: class-member-header.cu:[[@LINE-3]]:3: remark: threshold applied to launch of 'child'

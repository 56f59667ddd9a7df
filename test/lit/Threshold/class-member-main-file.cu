// A graph class of the main file with private CSR arrays and accessors that
// read the built-in index variables: each accessor gets a shadowed member
// right after it, inside the class (private access keeps compiling), and
// the serial copy calls it on the same object: `g.m()`, `p->m()`, `m()`
// inside a member, `Graph::m()` for a static member, a const member and a
// member template.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

class Graph {
public:
  __device__ int degree(int v) const { return offsets_[v + 1] - offsets_[v]; }
  __device__ int edgeOfThread() const { return blockIdx.x * blockDim.x + threadIdx.x; }
  __device__ void mark(int *out, int v) {
    if (edgeOfThread() < degree(v))
      out[targets_[offsets_[v] + edgeOfThread()]] = ++marks_;
  }
  static __device__ int gridThreads() { return gridDim.x * blockDim.x; }
  template <typename T> __device__ T scaled(T x) const { return x * (T)threadIdx.x; }

private:
  const int *offsets_;
  const int *targets_;
  int marks_;
};

// CHECK-LABEL: __device__ int edgeOfThread() const { return blockIdx.x * blockDim.x + threadIdx.x; }
// CHECK-EMPTY:
// CHECK-NEXT: // launchopt: 'edgeOfThread' for copied kernel bodies: the built-in index variables
// CHECK-NEXT: // are passed in and shadowed, as in the copy that calls it.
// CHECK-NEXT: __device__ int __lo_sh_edgeOfThread(const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim) const
// CHECK-NEXT: {
// CHECK-NEXT: const uint3 blockIdx = __lo_blockIdx;
// CHECK: { return blockIdx.x * blockDim.x + threadIdx.x; }
// CHECK-NEXT: }
// CHECK-NEXT: __device__ void mark(int *out, int v) {
// CHECK: __device__ void __lo_sh_mark(int *out, int v, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim)
// CHECK: if (__lo_sh_edgeOfThread(blockIdx, threadIdx, blockDim, gridDim) < degree(v))
// CHECK-NEXT: out[targets_[offsets_[v] + __lo_sh_edgeOfThread(blockIdx, threadIdx, blockDim, gridDim)]] = ++marks_;
// CHECK: static __device__ int __lo_sh_gridThreads(const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK: template <typename T> __device__ T __lo_sh_scaled(T x, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
// CHECK-NEXT: const dim3 __lo_blockDim, const dim3 __lo_gridDim) const
// CHECK: private:

__global__ void child(Graph g, Graph *p, int v, int *out, float *f) {
  for (int k = g.edgeOfThread(); k < g.degree(v); k += Graph::gridThreads())
    out[k] = k;
  p->mark(out, v);
  f[0] = g.scaled<float>(2.0f) + g.scaled(1.0f);
}

// The original child keeps calling the original members.
// CHECK-LABEL: __global__ void child(
// CHECK-NEXT: for (int k = g.edgeOfThread(); k < g.degree(v); k += Graph::gridThreads())
// CHECK-LABEL: static __device__ void __lo_thread_child(
// CHECK: for (int k = g.__lo_sh_edgeOfThread(blockIdx, threadIdx, blockDim, gridDim); k < g.degree(v); k += Graph::__lo_sh_gridThreads(blockIdx, threadIdx, blockDim, gridDim))
// CHECK: p->__lo_sh_mark(out, v, blockIdx, threadIdx, blockDim, gridDim);
// CHECK-NEXT: f[0] = g.__lo_sh_scaled<float>(2.0f, blockIdx, threadIdx, blockDim, gridDim) + g.__lo_sh_scaled(1.0f, blockIdx, threadIdx, blockDim, gridDim);

__global__ void parent(Graph g, Graph *p, int *out, float *f) {
  int v = threadIdx.x;
  int d = g.degree(v);
  child<<<(d + 31) / 32, 32>>>(g, p, v, out, f);
}

// REMARK: class-member-main-file.cu:[[@LINE-3]]:3: remark: threshold applied to launch of 'child'

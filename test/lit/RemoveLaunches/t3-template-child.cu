// T3 takes template children: the record and the function that runs a child
// thread are templates, and the parent names them with the launch's template
// arguments, written or deduced from the arguments' types, and with the
// launch's qualifier for a child of another namespace defined before it. A
// parent that launches one child with two sets of template arguments keeps
// the second launch (one list per child in a block).
// RUN: %launchopt --remove-launches=T3 %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu

namespace lib {
template <typename T> __global__ void tile(T *d, int n) {
  __shared__ T partial[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? d[i] : T(0);
  __syncthreads();
  if (i < n)
    d[i] = partial[threadIdx.x] + partial[(threadIdx.x + 1) % 64];
}
} // namespace lib

template <typename V> __global__ void parent(V *d, const int *len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (len[t] > 0)
    lib::tile<<<(len[t] + 63) / 64, 64>>>(d, len[t]);
}

__global__ void mixed(float *f, int *i) {
  lib::tile<float><<<1, 64, 0, cudaStreamFireAndForget>>>(f, 64);
  lib::tile<int><<<1, 64, 0, cudaStreamFireAndForget>>>(i, 64);
}

void host(float *f, int *i, const int *len) {
  parent<<<2, 64>>>(f, len);
  mixed<<<1, 64>>>(f, i);
}

// REMARK: t3-template-child.cu:26:5: remark: remove-launches applied to launch of 'tile'
// REMARK-SAME: version: T3
// REMARK: t3-template-child.cu:30:3: remark: remove-launches applied to launch of 'tile'
// REMARK: t3-template-child.cu:31:3: remark: not removed: the parent launches 'tile' with other template arguments at line 30: T3 keeps one list of a child's launches per parent block

// CHECK: recorded by a thread of its parent block (T3).
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: struct __lo_rec_tile {
// CHECK: template <typename T>
// CHECK-NEXT: static __device__ void __lo_bthread_tile(T *d, int n,
// CHECK-LABEL: __global__ void parent(V *d, const int *len) {
// CHECK: __shared__ launchopt::removal::BlockLaunches<lib::__lo_rec_tile<V>, LAUNCHOPT_REMOVAL_SLOTS>
// CHECK: const lib::__lo_rec_tile<V> __lo_r1 = {{.*}} typename lib::__lo_rec_tile<V>::Arguments(d, len[t])};
// CHECK: lib::__lo_bthread_tile<V>(

// A child in another namespace than the code that records its launches:
// its argument structs, launcher and direct copy are written beside it, in
// its namespace, and the parent names them qualified (anonymous namespaces
// left out); for a child defined after the parent they are declared in its
// namespace reopened before the parent (thresholding declares its serial
// copy there too). Launch removal keeps only T4 for such children.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=grid %s -o %t.g.cu 2> /dev/null
// RUN: %nvcc-compile %t.g.cu
// RUN: %launchopt --threshold --coarsen --aggregate=warp %s -o %t.tcw.cu 2> /dev/null
// RUN: %nvcc-compile %t.tcw.cu
// RUN: %launchopt --threshold %s -o %t.t.cu 2> %t.t.remarks
// RUN: %FileCheck %s --check-prefix=THRESHOLD < %t.t.remarks
// RUN: %nvcc-compile %t.t.cu
// RUN: %launchopt --remove-launches=T3 %s -o %t.r.cu 2> %t.r.remarks
// RUN: %FileCheck %s --check-prefix=REMOVAL < %t.r.remarks
// RUN: %nvcc-compile %t.r.cu

namespace kern {
struct Pair {
  int a, b;
};
__global__ void child(Pair *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i].a += p[i].b;
}
template <typename T> __global__ void scale(T *d, int n, T f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= f;
}
namespace {
__global__ void hidden(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = -d[i];
}
} // namespace
} // namespace kern

__global__ void global(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: sizeof(::kern::__lo_args_child)
// CHECK: ::new (__lo_record{{[0-9]+}}) ::kern::__lo_args_child(p + t * 1024, len[t]);
// CHECK: sizeof(::kern::__lo_args_scale<float>)
// CHECK: sizeof(::kern::__lo_args_hidden)
// CHECK: __global__ void parent(
// CHECK: ::kern::__lo_launch_child(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
// CHECK: ::kern::__lo_launch_scale<float>(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
// CHECK: ::kern::__lo_launch_hidden(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
__global__ void parent(kern::Pair *p, float *f, int *d, const int *len, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m)
    return;
  kern::child<<<(len[t] + 127) / 128, 128>>>(p + t * 1024, len[t]);
  kern::scale<float><<<(len[t] + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(f, len[t], 2.0f);
  kern::hidden<<<1, 64, 0, cudaStreamFireAndForget>>>(d + t * 64, 64);
}
// REMARKS: child-in-other-namespace.cu:[[@LINE-4]]:3: remark: aggregate applied to launch of 'child'
// REMARKS: child-in-other-namespace.cu:[[@LINE-4]]:3: remark: aggregate applied to launch of 'scale'
// REMARKS: child-in-other-namespace.cu:[[@LINE-4]]:3: remark: aggregate applied to launch of 'hidden'
// T3 names the records and copies beside the child as the launch names it.
// REMOVAL: child-in-other-namespace.cu:[[@LINE-8]]:3: remark: remove-launches applied to launch of 'child'
// REMOVAL: child-in-other-namespace.cu:[[@LINE-8]]:3: remark: remove-launches applied to launch of 'scale'
// REMOVAL: child-in-other-namespace.cu:[[@LINE-8]]:3: remark: remove-launches applied to launch of 'hidden'

namespace app {
__global__ void later(int *d, int n);

// CHECK-LABEL: static __device__ void __lo_part_parent2(
// CHECK: ::new (__lo_uniform{{[0-9]+}}) ::__lo_uargs_global(d, 32);
// CHECK: ::__lo_launch_global(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
__global__ void parent2(int *d) {
  global<<<1, 32, 0, cudaStreamFireAndForget>>>(d, 32);
  later<<<1, 32, 0, cudaStreamFireAndForget>>>(d, 32);
}
// REMARKS: child-in-other-namespace.cu:[[@LINE-3]]:3: remark: aggregate applied to launch of 'global'
// REMARKS: child-in-other-namespace.cu:[[@LINE-3]]:3: remark: aggregate applied to launch of 'later'

__global__ void later(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 3;
}
} // namespace app

// A child of another namespace defined after its parent: its launcher is
// declared and its argument structs defined in its namespace, reopened
// before the parent.
// CHECK-LABEL: __global__ void tail(int *d, int n);
// CHECK: namespace late {
// CHECK-NEXT: static __device__ void __lo_launch_tail(
// CHECK: namespace late {
// CHECK: struct __lo_args_tail {
// CHECK: __global__ void parent3(int *d)
// CHECK: ::late::__lo_launch_tail(__lo_agg{{[0-9]+}}, cudaStreamFireAndForget, true);
namespace late {
__global__ void tail(int *d, int n);
}
__global__ void parent3(int *d) { late::tail<<<1, 32, 0, cudaStreamFireAndForget>>>(d, 32); }
// REMARKS: child-in-other-namespace.cu:[[@LINE-1]]:35: remark: aggregate applied to launch of 'tail'
// THRESHOLD: child-in-other-namespace.cu:[[@LINE-2]]:35: remark: threshold applied to launch of 'tail'
// REMOVAL: child-in-other-namespace.cu:[[@LINE-3]]:35: remark: not removed: the child is in another namespace than the parent and is not named qualified or not defined before it; only T4, which runs the child in the calling thread, takes it
namespace late {
__global__ void tail(int *d, int n) {
  if ((int)threadIdx.x < n)
    d[threadIdx.x] = 0;
}
} // namespace late

int main() {
  parent<<<1, 32>>>(nullptr, nullptr, nullptr, nullptr, 0);
  app::parent2<<<1, 1>>>(nullptr);
  parent3<<<1, 1>>>(nullptr);
  cudaDeviceSynchronize();
  return 0;
}

// A template child launched from a non-template parent with its template
// arguments left to deduction, which Clang 19 drops: recovered when the
// arguments' types show every template argument (`float *` for `T *`, a
// `const int *` for `const T *`, a struct of another namespace), then taken
// like any launch; the output keeps the user's launch text where a pass
// leaves it, and no recovery spelling.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=block %s -o %t.a.cu 2> %t.a.remarks
// RUN: %FileCheck %s --check-prefix=AGGREGATE < %t.a.remarks
// RUN: %nvcc-compile %t.a.cu
// RUN: %not grep -q 'recovered-overload[*]/\|as-written[:]' %t.cu %t.a.cu

namespace lib {
struct Pair {
  float a, b;
};
} // namespace lib

template <typename T> __global__ void fill(T *d, int n, T v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = v;
}

template <typename T, typename U> __global__ void convert(const T *a, U *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = U(a[i]);
}

template <typename T> __global__ void fold(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i].a += p[i].b;
}

template <typename T> __global__ void withBarrier(T *d) {
  __shared__ T s;
  s = d[0];
  __syncthreads();
  d[threadIdx.x] += s;
}

__global__ void parent(float *d, const int *len, lib::Pair *p) {
  int n = len[threadIdx.x];
  fill<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(d + threadIdx.x * 1024, n, 2.0f);
  convert<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(len, d, n);
  fold<<<1, 32, 0, cudaStreamFireAndForget>>>(p, n);
  withBarrier<<<1, 32, 0, cudaStreamFireAndForget>>>(d);
}

// REMARK: template-child-deduced-non-template-parent.cu:49:3: remark: threshold applied to launch of 'fill'
// REMARK: template-child-deduced-non-template-parent.cu:50:3: remark: threshold applied to launch of 'convert'
// REMARK: template-child-deduced-non-template-parent.cu:51:3: remark: threshold applied to launch of 'fold'
// REMARK: template-child-deduced-non-template-parent.cu:52:3: remark: not thresholded: child uses __syncthreads
// AGGREGATE: template-child-deduced-non-template-parent.cu:49:3: remark: aggregate applied to launch of 'fill'
// AGGREGATE: template-child-deduced-non-template-parent.cu:50:3: remark: aggregate applied to launch of 'convert'
// AGGREGATE: template-child-deduced-non-template-parent.cu:51:3: remark: aggregate applied to launch of 'fold'

// CHECK-LABEL: __global__ void parent(
// CHECK: __lo_serial_fill<float>(
// CHECK: __lo_serial_convert<int, float>(
// CHECK: __lo_serial_fold<lib::Pair>(
// CHECK: withBarrier<<<1, 32, 0, cudaStreamFireAndForget>>>(d);

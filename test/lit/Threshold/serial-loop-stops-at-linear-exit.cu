// A child that ends the threads past its data with a guard on its linear x
// index (the offset and the bound alike for every thread) gets a serial copy
// whose x loops stop at the first thread the guard ends; children whose
// guard is not of that form keep the plain loops.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s --check-prefix=NOT
// RUN: %nvcc-compile %t.cu

__global__ void edges(const int *cols, int begin, int end, int *out) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= end)
    return;
  out[cols[e]] = 1;
}
// CHECK-LABEL: // launchopt: whether the guard of 'edges' ends this thread and every later one in x:
// CHECK-NEXT: // (e >= end)
// CHECK-NEXT: static __device__ bool __lo_thread_exit_edges(const int *cols, int begin, int end, int *out,
// CHECK: int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT: (void)e;
// CHECK-NEXT: return (e >= end);
// CHECK: static __device__ void __lo_serial_edges(
// CHECK: bool __lo_xEnded = false;
// CHECK-NEXT: for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
// CHECK: if (__lo_thread_exit_edges(cols, begin, end, out, make_uint3(__lo_bx, __lo_by, __lo_bz),
// CHECK: __lo_xEnded = true;
// CHECK-NEXT: break;

// The body under `if (i < n)`, the index declared unsigned, the bound on the left.
__global__ void scale(float *data, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (n > i && data[i] > 0.0f) {
    data[i] *= 2.0f;
  }
}
// CHECK-LABEL: static __device__ bool __lo_thread_exit_scale(
// CHECK: return !(n > i);

// One operand of an `||`; the index through two locals and a cast.
__global__ void tail(int *flags, long long first, long long count) {
  long long base = first + (long long)(blockIdx.x * blockDim.x);
  long long k = base + threadIdx.x;
  if (flags[0] != 0 || k >= first + count) return;
  flags[k] = 2;
}
// CHECK-LABEL: static __device__ bool __lo_thread_exit_tail(
// CHECK: return (k >= first + count);

// NOT-NOT: __lo_thread_exit_wraps
// Compared as unsigned, an index that subtracts may wrap below the first threads.
__global__ void wraps(int *data, unsigned n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x - 1;
  if (i >= n) return;
  data[i + 1] = i;
}
// NOT-NOT: __lo_thread_exit_readsbound
// A bound read from memory may be written by an earlier thread of the copy.
__global__ void readsbound(int *data, const int *sizes) {
  int n = sizes[0];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  data[i] = n;
}
// NOT-NOT: __lo_thread_exit_rows
// A guard on y, or an x index that is not the linear one, is not taken.
__global__ void rows(int *data, int h) {
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= h) return;
  data[y] = 1;
}
// NOT-NOT: __lo_thread_exit_strided
__global__ void strided(int *data, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  data[i] = 1;
}
// NOT-NOT: __lo_thread_exit_notfirst
// The guard must come first: a store before it runs for every thread.
__global__ void notfirst(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[0] = 7;
  if (i >= n) return;
  data[i] = 1;
}

__global__ void parent(const int *cols, int *out, float *f, int *flags, const int *sizes) {
  int n = sizes[threadIdx.x];
  edges<<<(n + 63) / 64, 64>>>(cols, 0, n, out);
  scale<<<(n + 63) / 64, 64>>>(f, n);
  tail<<<(n + 63) / 64, 64>>>(flags, 1, n);
  wraps<<<(n + 63) / 64, 64>>>(out, n);
  readsbound<<<(n + 63) / 64, 64>>>(out, sizes);
  rows<<<dim3(1, (n + 63) / 64), dim3(1, 64)>>>(out, n);
  strided<<<(n + 63) / 64, 64>>>(out, n);
  notfirst<<<(n + 63) / 64, 64>>>(out, n);
}

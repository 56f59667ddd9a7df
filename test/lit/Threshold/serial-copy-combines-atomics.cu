// A serial copy combines the child's atomic updates of one address in a
// slot (runtime: launchopt/accumulate.cuh) and applies them once after the
// child's last thread: the address is the same for every thread of the
// child and the child names it nowhere else. The per-thread function takes
// the slot as a last parameter that defaults to none (each update applied
// at once). An address that differs per thread, or a child that fences,
// keeps its atomics as written.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck --check-prefix=REMARK %s < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_COMBINE_ATOMICS=0 %t.cu

__global__ void row_sum(const float *v, int begin, int end, float *sum) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end)
    atomicAdd(sum, v[e]);
}

__global__ void histogram(const int *keys, int begin, int end, int *bins) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end)
    atomicAdd(&bins[keys[e] & 15], 1);
}

__global__ void fenced(const float *v, int begin, int end, float *sum, int *done) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end) {
    atomicAdd(sum, v[e]);
    __threadfence();
    atomicAdd(done, 1);
  }
}

__global__ void parent(const float *v, const int *keys, const int *offsets, float *y, int *bins,
                       int *done, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int begin = offsets[r], end = offsets[r + 1];
  int blocks = (end - begin + 31) / 32;
  row_sum<<<blocks, 32>>>(v, begin, end, &y[r]);
  histogram<<<blocks, 32>>>(keys, begin, end, bins);
  fenced<<<blocks, 32>>>(v, begin, end, &y[r], done);
}

// CHECK: // ---- launchopt runtime: launchopt/accumulate.cuh ----
// CHECK-LABEL: static __device__ void __lo_thread_row_sum(
// CHECK-NEXT: decltype(launchopt::accumulate::slotFor(sum)) *__lo_acc0 = nullptr)
// CHECK: launchopt::accumulate::put<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, sum, v[e]);
// CHECK-LABEL: static __device__ void __lo_serial_row_sum(
// CHECK: auto __lo_acc0 = launchopt::accumulate::start<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(sum);
// CHECK: __lo_thread_row_sum(v, begin, end, sum,
// CHECK-NEXT: &__lo_acc0);
// CHECK: launchopt::accumulate::flush<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, sum);
// CHECK-NEXT: }
// CHECK-LABEL: static __device__ void __lo_thread_histogram(
// CHECK-NOT: accumulate
// CHECK: atomicAdd(&bins[keys[e] & 15], 1);
// CHECK-LABEL: static __device__ void __lo_thread_fenced(
// CHECK-NOT: accumulate
// CHECK: atomicAdd(sum, v[e]);

// REMARK: serial-copy-combines-atomics.cu:42:3: remark: threshold applied to launch of 'row_sum' (serial-atomics: atomicAdd(sum): combined per serial run, applied once,
// REMARK: serial-copy-combines-atomics.cu:43:3: remark: threshold applied to launch of 'histogram'
// REMARK-NOT: serial-atomics
// REMARK-SAME: {{$}}
// REMARK: serial-copy-combines-atomics.cu:44:3: remark: threshold applied to launch of 'fenced'
// REMARK-NOT: serial-atomics
// REMARK-SAME: {{$}}

// A coarsened child combines its atomic updates of one address over the
// original blocks each thread runs, in a slot that starts from the
// operation's identity, and after the last one the lanes of a warp that all
// name the address combine their slots by shuffles (flushWarp). A body that
// fits in the loop names its slot as a local; a per-block function (the
// child returns early) takes it as a parameter that defaults to none.
// RUN: %launchopt --coarsen %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_COMBINE_ATOMICS=0 %t.cu

__global__ void row_sum(const float *v, int begin, int end, float *sum) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < end)
    atomicAdd(sum, v[e]);
}

__global__ void row_max(const int *v, int begin, int end, int *best) {
  int e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= end)
    return;
  atomicMax(best, v[e]);
}

__global__ void parent(const float *v, const int *w, const int *offsets, float *y, int *most,
                       int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int begin = offsets[r], end = offsets[r + 1];
  int blocks = (end - begin + 31) / 32;
  row_sum<<<blocks, 32>>>(v, begin, end, &y[r]);
  row_max<<<blocks, 32>>>(w, begin, end, &most[r]);
}

// CHECK: // ---- launchopt runtime: launchopt/accumulate.cuh ----
// CHECK-LABEL: __global__ void __lo_coarse_row_sum(
// CHECK-NEXT: {
// CHECK-NEXT:   // launchopt: the child's atomic updates of one address, combined here and applied once.
// CHECK-NEXT:   auto __lo_acc0 = launchopt::accumulate::start<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(sum);
// CHECK:          launchopt::accumulate::put<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(&__lo_acc0, sum, v[e]);
// CHECK:        launchopt::accumulate::flushWarp<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, sum);
// CHECK-NEXT: }
// CHECK-LABEL: static __device__ void __lo_block_row_max(
// CHECK-NEXT: decltype(launchopt::accumulate::slotFor(best)) *__lo_acc0 = nullptr)
// CHECK:        launchopt::accumulate::put<launchopt::accumulate::Max<launchopt::accumulate::Scope::Device>>(__lo_acc0, best, v[e]);
// CHECK-LABEL: __global__ void __lo_coarse_row_max(
// CHECK:        auto __lo_acc0 = launchopt::accumulate::start<launchopt::accumulate::Max<launchopt::accumulate::Scope::Device>>(best);
// CHECK:        blockDim, __lo_originalGrid, &__lo_acc0);
// CHECK-NEXT:   launchopt::accumulate::flushWarp<launchopt::accumulate::Max<launchopt::accumulate::Scope::Device>>(__lo_acc0, best);
// CHECK-NEXT: }

// REMARK: combined-atomics.cu:33:3: remark: coarsen applied to launch of 'row_sum' (coarsened-kernel: __lo_coarse_row_sum, combined-atomics: atomicAdd(sum): combined over each thread's original blocks, then across its warp,
// REMARK: combined-atomics.cu:34:3: remark: coarsen applied to launch of 'row_max' (coarsened-kernel: __lo_coarse_row_max, combined-atomics: atomicMax(best): combined over each thread's original blocks, then across its warp,

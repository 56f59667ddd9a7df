// The serial copy of a child whose threads loop first offers the child to the
// lanes of the warp that run theirs at the same time (runtime:
// launchopt/packing.cuh), with the child's guard on its linear x index, which
// ends each child where its data does, and its estimated instructions per
// thread (0: unknown, it loops). A child of a few instructions keeps the
// plain serial loop: pooling costs more than it saves there. The output
// embeds the runtime header once and compiles, pooled or not.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck --check-prefix=REMARK %s < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %nvcc-compile -DLAUNCHOPT_SERIAL_PACKING=0 %t.cu

__global__ void scale(float *d, int begin, int end, float f) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end)
    d[i] *= f;
}

__global__ void sum_rows(const float *d, int begin, int end, const int *lengths, float *out) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end)
    return;
  float s = 0.0f;
  for (int k = 0; k < lengths[i]; ++k)
    s += d[k];
  out[i] = s;
}

__global__ void parent(float *d, const int *offsets, const int *lengths, float *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = offsets[r], end = offsets[r + 1];
  scale<<<(end - begin + 31) / 32, 32>>>(d, begin, end, 2.0f);
  sum_rows<<<(end - begin + 31) / 32, 32>>>(d, begin, end, lengths, out);
}

// REMARK: serial-copy-pools-lanes.cu:33:3: remark: threshold applied to launch of 'scale' (serial-function: __lo_serial_scale, threads:
// REMARK: serial-copy-pools-lanes.cu:34:3: remark: threshold applied to launch of 'sum_rows' ({{.*}}serial-function: __lo_serial_sum_rows, serial-pooling: the lanes of a warp pool their children's threads (the child's threads loop, or call what the estimate cannot follow), threads:

// CHECK: // ---- launchopt runtime: launchopt/packing.cuh ----
// CHECK: namespace packing {
// CHECK: __device__ bool runTogether(
// CHECK: // ---- end of launchopt/packing.cuh ----
// CHECK-NOT: launchopt runtime: launchopt/packing.cuh

// CHECK: static __device__ void __lo_serial_scale(float *d, int begin, int end, float f, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-NEXT: {
// CHECK-NEXT:   for (unsigned __lo_bz = 0;

// CHECK: static __device__ void __lo_serial_sum_rows(const float *d, int begin, int end, const int *lengths, float *out, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
// CHECK-NEXT: {
// CHECK-NEXT:   if (launchopt::packing::runTogether(__lo_gridDim, __lo_blockDim,
// CHECK-NEXT:           [=](const uint3 __lo_b, const uint3 __lo_t, const dim3 __lo_bd, const dim3 __lo_gd) {
// CHECK-NEXT:             __lo_thread_sum_rows(d, begin, end, lengths, out, __lo_b, __lo_t, __lo_bd, __lo_gd);
// CHECK-NEXT:           },
// CHECK-NEXT:           [=](const uint3 __lo_b, const uint3 __lo_t, const dim3 __lo_bd, const dim3 __lo_gd) {
// CHECK-NEXT:             return __lo_thread_exit_sum_rows(d, begin, end, lengths, out, __lo_b, __lo_t, __lo_bd, __lo_gd);
// CHECK-NEXT:           }, 0u))
// CHECK-NEXT:     return;
// CHECK-NEXT:   for (unsigned __lo_bz = 0;

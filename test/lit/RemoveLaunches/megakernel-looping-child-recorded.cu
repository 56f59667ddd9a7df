// The megakernel runs a child of at most LAUNCHOPT_PERSISTENT_INLINE_THREADS
// threads in the launching thread only when the child's threads run no loop:
// a few threads that each walk a list (triangle counting's intersections)
// are not small work. A loop of a constant trip count of at most 8 does not
// count; a loop in a called helper does.
// RUN: %launchopt --remove-launches %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-plain-compile %t.cu
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s --check-prefix=CODE
// CODE: if (launchopt::persistent::runsInline({{.*}}) || !launchopt::persistent::record(__lo_pq_parent_flat,
// CODE: if (!launchopt::persistent::record(__lo_pq_parent_walk,
// CODE: if (launchopt::persistent::runsInline({{.*}}) || !launchopt::persistent::record(__lo_pq_parent_unrolled,
// CODE: if (!launchopt::persistent::record(__lo_pq_parent_helper,
#include <cuda_runtime.h>

__global__ void scale(float *v, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end)
    v[i] *= 2.0f;
}

__global__ void walk(const int *next, int *out, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end)
    return;
  int steps = 0;
  for (int j = next[i]; j >= 0; j = next[j])
    ++steps;
  out[i] = steps;
}

__global__ void unrolled(float *v, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end)
    return;
  for (int k = 0; k < 4; ++k)
    v[i * 4 + k] += 1.0f;
}

__device__ int chainLength(const int *next, int j) {
  int steps = 0;
  while (j >= 0) {
    j = next[j];
    ++steps;
  }
  return steps;
}

__global__ void helper(const int *next, int *out, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end)
    out[i] = chainLength(next, next[i]);
}

__global__ void parent_flat(float *v, const int *offsets) {
  int r = threadIdx.x;
  scale<<<(offsets[r + 1] - offsets[r] + 31) / 32, 32>>>(v, offsets[r], offsets[r + 1]);
}
__global__ void parent_walk(const int *next, int *out, const int *offsets) {
  int r = threadIdx.x;
  walk<<<(offsets[r + 1] - offsets[r] + 31) / 32, 32>>>(next, out, offsets[r], offsets[r + 1]);
}
__global__ void parent_unrolled(float *v, const int *offsets) {
  int r = threadIdx.x;
  unrolled<<<(offsets[r + 1] - offsets[r] + 31) / 32, 32>>>(v, offsets[r], offsets[r + 1]);
}
__global__ void parent_helper(const int *next, int *out, const int *offsets) {
  int r = threadIdx.x;
  helper<<<(offsets[r + 1] - offsets[r] + 31) / 32, 32>>>(next, out, offsets[r], offsets[r + 1]);
}

void run(float *v, const int *next, int *out, const int *offsets) {
  parent_flat<<<1, 64>>>(v, offsets);
  parent_walk<<<1, 64>>>(next, out, offsets);
  parent_unrolled<<<1, 64>>>(v, offsets);
  parent_helper<<<1, 64>>>(next, out, offsets);
}

// CHECK: ('parent_flat' -> 'scale'): remove-launches: applied
// CHECK-NEXT: auto: megakernel {{.*}}: child grids of data-dependent sizes: a child of at most LAUNCHOPT_PERSISTENT_INLINE_THREADS threads runs in the launching thread (T4), the others are recorded
// CHECK: ('parent_walk' -> 'walk'): remove-launches: applied
// CHECK-NEXT: auto: megakernel {{.*}}: child grids of data-dependent sizes: every child is recorded (its threads run loops, so few threads may still be much work)
// CHECK: ('parent_unrolled' -> 'unrolled'): remove-launches: applied
// CHECK-NEXT: auto: megakernel {{.*}}: a child of at most LAUNCHOPT_PERSISTENT_INLINE_THREADS threads runs in the launching thread
// CHECK: ('parent_helper' -> 'helper'): remove-launches: applied
// CHECK-NEXT: auto: megakernel {{.*}}: every child is recorded

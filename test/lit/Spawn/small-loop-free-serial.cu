// A child whose threads run no loop is serialized without asking the
// controller when it has at most LAUNCHOPT_SPAWN_SERIAL_THREADS threads (the
// last argument of admit is true): its serial run costs the parent thread
// less than the launch would. A child whose threads loop is always asked
// about, whatever its size; one that launches nothing passes leaf (its grids
// are bounded by the pending-launch pool, not the concurrent-grid limit).
// RUN: %launchopt --spawn %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc-compile %t.cu
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// CHECK: launchopt::spawn::admit(1u, __lo_sgrid1, __lo_sblock1, __lo_sthreads1,
// CHECK-NEXT: !__lo_sfits1, true);
// CHECK: launchopt::spawn::admit(2u, __lo_sgrid2, __lo_sblock2, __lo_sthreads2,
// CHECK-NEXT: !__lo_sfits2, false, true);
// REPORT: ('parent' -> 'scale'): spawn: applied
// REPORT: serial-without-controller: at most LAUNCHOPT_SPAWN_SERIAL_THREADS threads (its threads run no loop)
// REPORT: ('parent' -> 'walk'): spawn: applied
// REPORT-NOT: serial-without-controller
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

__global__ void parent(float *__restrict__ v, const int *__restrict__ next, int *__restrict__ out,
                       const int *offsets) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = offsets[r], end = offsets[r + 1];
  scale<<<(end - begin + 31) / 32, 32>>>(v, begin, end);
  walk<<<(end - begin + 31) / 32, 32>>>(next, out, begin, end);
}

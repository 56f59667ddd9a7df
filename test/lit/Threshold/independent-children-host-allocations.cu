// Pointer parameters that the parent's host launches give distinct
// cudaMalloc allocations are different arrays: two elements of an array of
// allocations whose indices never meet (`now` and `next = 1 - now`), or two
// variables that only cudaMalloc writes. Not proved: one allocation passed
// twice, a variable also assigned another way, indices that may meet, and a
// parent that device code launches too.
// RUN: %launchopt --threshold %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=grid %s -o %t.a.cu 2> %t.a.remarks
// RUN: %FileCheck %s --check-prefix=AGG < %t.a.remarks

__global__ void copy(const int *from, int *to, int n) {
  int i = threadIdx.x;
  if (i < n)
    to[i] = from[i];
}

__global__ void phases(const int *a, int *b, const int *c, int *d, int n) {
  copy<<<1, 32>>>(a, b, n);
  copy<<<1, 32>>>(c, d, n);
}

__global__ void phasesAlsoFromDevice(const int *a, int *b, const int *c, int *d, int n) {
  copy<<<1, 32>>>(a, b, n);
  copy<<<1, 32>>>(c, d, n);
}

__global__ void launcher(int *x, int *y, int n) { phasesAlsoFromDevice<<<1, 1>>>(x, y, x, y, n); }

__global__ void phasesTwice(const int *a, int *b, const int *c, int *d, int n) {
  copy<<<1, 32>>>(a, b, n);
  copy<<<1, 32>>>(c, d, n);
}

__global__ void phasesReassigned(const int *a, int *b, const int *c, int *d, int n) {
  copy<<<1, 32>>>(a, b, n);
  copy<<<1, 32>>>(c, d, n);
}

__global__ void phasesMayMeet(const int *a, int *b, const int *c, int *d, int n) {
  copy<<<1, 32>>>(a, b, n);
  copy<<<1, 32>>>(c, d, n);
}

void others(int n, int i, int j) {
  int *buffers[4], *in, *out, *alias;
  for (int k = 0; k < 4; ++k)
    cudaMalloc(&buffers[k], n * sizeof(int));
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&alias, n * sizeof(int));
  phasesTwice<<<1, 1>>>(in, out, out, buffers[0], n);
  alias = out;
  phasesReassigned<<<1, 1>>>(in, out, buffers[1], alias, n);
  phasesMayMeet<<<1, 1>>>(buffers[i], buffers[2 * j], in, buffers[i + 1], n);
}

void run(int n, int rounds) {
  int *buffers[2], *in, *out, *other;
  for (int i = 0; i < 2; ++i)
    cudaMalloc(&buffers[i], n * sizeof(int));
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&other, n * sizeof(int));
  for (int r = 0; r < rounds; ++r) {
    int now = r % 2, next = 1 - now;
    phases<<<1, 1>>>(buffers[now], buffers[next], in, out, n);
  }
  phasesAlsoFromDevice<<<1, 1>>>(in, out, other, buffers[0], n);
}

// CHECK: independent-children-host-allocations.cu:21:3: remark: threshold applied to launch of 'copy' (independence: independent of the earlier launches into the same stream: 'a', 'b', 'c', 'd' are distinct allocations: every host launch of 'phases' (1) passes cudaMalloc results that differ,
// CHECK: independent-children-host-allocations.cu:26:3: remark: threshold applied to launch of 'copy' (order-guard: {{.*}}its host launches do not show them distinct cudaMalloc allocations
// CHECK: independent-children-host-allocations.cu:33:3: remark: threshold applied to launch of 'copy' (order-guard: {{.*}}its host launches do not show them distinct cudaMalloc allocations
// CHECK: independent-children-host-allocations.cu:38:3: remark: threshold applied to launch of 'copy' (order-guard: {{.*}}its host launches do not show them distinct cudaMalloc allocations
// CHECK: independent-children-host-allocations.cu:43:3: remark: threshold applied to launch of 'copy' (order-guard: {{.*}}its host launches do not show them distinct cudaMalloc allocations

// AGG: independent-children-host-allocations.cu:20:3: remark: aggregate applied to launch of 'copy'
// AGG: independent-children-host-allocations.cu:21:3: remark: aggregate applied to launch of 'copy'
// AGG: independent-children-host-allocations.cu:25:3: remark: not aggregated: the launch of 'copy' at line 26
// AGG: independent-children-host-allocations.cu:26:3: remark: not aggregated: the parent thread launches other children into the same stream

// AGG runs aggregation at grid granularity, which refuses what it cannot prove (warp and
// block scopes keep the order instead: Aggregate/ordered-scopes.cu).

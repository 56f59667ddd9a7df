// An aggregated child runs when its group's launch is made, after the
// launches its parent thread makes later. At multi-block and grid
// granularity a later launch into the same stream that aggregation leaves as
// a launch (here: it reads what the first child writes, so it is not proved
// independent) would overtake it, so the first launch is left too, with the
// reason. Warp and block scopes keep the order instead (ordered scopes:
// Aggregate/ordered-scopes.cu). Two launches into created streams of their
// own do not order each other and are both aggregated.
// RUN: %launchopt --aggregate=grid %s -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.remarks
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --aggregate=multiblock:4 %s -o %t.m.cu 2> %t.m.remarks
// RUN: %FileCheck %s < %t.m.remarks
// RUN: %launchopt --aggregate=warp %s -o %t.w.cu 2> %t.w.remarks
// RUN: %FileCheck %s --check-prefix=ORDERED < %t.w.remarks

__global__ void produce(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = i;
}

__global__ void consume(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = a[i] + 1;
}

__global__ void pipeline(int *a, int *b, int n) {
  produce<<<(n + 31) / 32, 32>>>(a, n);
  consume<<<(n + 31) / 32, 32>>>(a, b, n);
}

__global__ void apart(int *a, int *b, int n) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  produce<<<(n + 31) / 32, 32, 0, s1>>>(a, n);
  produce<<<(n + 31) / 32, 32, 0, s2>>>(b, n);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

// CHECK: overtaken-launch-refused.cu:30:3: remark: not aggregated: the launch of 'consume' at line 31, which may follow this one into the same stream, is not aggregated: it would run before this child's aggregated launch
// CHECK: overtaken-launch-refused.cu:31:3: remark: not aggregated: the parent thread launches other children into the same stream before this one{{.*}}; not kept in order: only warp and block granularity keep the order
// CHECK: overtaken-launch-refused.cu:38:3: remark: aggregate applied to launch of 'produce'
// CHECK: overtaken-launch-refused.cu:39:3: remark: aggregate applied to launch of 'produce'
// ORDERED: overtaken-launch-refused.cu:30:3: remark: aggregate applied to launch of 'produce' ({{.*}}order: kept with the launches at line 31
// ORDERED: overtaken-launch-refused.cu:31:3: remark: aggregate applied to launch of 'consume' ({{.*}}order: kept with the launches at line 30

// A malloc inside a branch cannot wait for the whole block: even at block
// granularity it is aggregated over the warp's threads that take the branch.
// RUN: %launchopt --aggregate=block %s -o %t.cu 2> %t.remarks
// RUN: grep -v '^// [A-Z0-9-]*:' %t.cu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-compile %t.cu

__global__ void child(int *d) { d[threadIdx.x] = threadIdx.x; }

__global__ void parent(const int *sizes, int **out) {
  int n = sizes[threadIdx.x];
  if (n > 16) {
    int *d = (int *)malloc(n * sizeof(int));
    out[threadIdx.x] = d;
    child<<<1, n>>>(d);
  }
}

// CHECK-LABEL: static __device__ void __lo_part_parent(
// CHECK: if (n > 16) {
// CHECK-NEXT: int *d = (int *)launchopt::warpMalloc(n * sizeof(int));
// CHECK-NOT: malloc(

// REMARK: malloc-divergent.cu:13:21: remark: aggregate: 'malloc' in 'parent': one allocation per warp, then split (launchopt::warpMalloc)

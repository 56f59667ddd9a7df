// A host-launched parent whose threads each launch a small child of a
// constant size with uniform arguments: launch removal runs it without any
// launch and wins over thresholding + aggregation (which would serialize it
// too but keep a device launch in the code); nothing else takes the site, and
// the output builds without -rdc.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> %t.remarks
// RUN: %FileCheck %s < %t.report
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %nvcc-plain-compile %t.cu
// CHECK: launch #1 at {{.*}}:{{[0-9]+}}:3 ('parent' -> 'add_one'): auto: applied
// CHECK:   child-threads: 32
// CHECK:   choice: R:auto (
// CHECK:   parent: launched from the host
// CHECK:   passes: --remove-launches=auto
// CHECK:   rejected: as written: {{.*}}T+C+A:block: {{[0-9.]+}} us (a tie
// CHECK:   uniform-arguments: 2 of 2
// CHECK: remove-launches: applied
// CHECK-NOT: threshold: applied
// CHECK-NOT: aggregate: applied
// REMARK: remark: auto applied to launch of 'add_one' (child: independent threads, child-threads: 32, choice: R:auto
#include <cuda_runtime.h>

__global__ void add_one(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += 1;
}

__global__ void parent(int *out, int n) {
  add_one<<<1, 32>>>(out, n);
}

int main() {
  int *out;
  cudaMalloc(&out, 1 << 12);
  parent<<<8, 128>>>(out, 32);
  cudaDeviceSynchronize();
  return 0;
}

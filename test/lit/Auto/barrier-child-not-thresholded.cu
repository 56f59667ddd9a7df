// A child whose threads meet at __syncthreads cannot run serially in the
// parent thread: --auto chooses no thresholding for it (coarsening and
// aggregation take it), and the threshold pass, if the plan ran it, would say
// why. Candidates one pass refuses for one reason share an entry of the
// rejected list. The output compiles; the JSON report has the same choice.
// RUN: %launchopt --auto %s --report=%t.report -o %t.cu 2> /dev/null
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc-compile %t.cu
// RUN: %launchopt --auto %s --report=%t.json --format=json -o /dev/null 2> /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// JSON: "child": "tile",
// JSON: "choice": "{{C\+A|A}}:{{[a-z:0-9]+}} ({{[0-9.]+}} us)",
// JSON: "rejected": "{{.*}}T: not possible: --threshold refuses: child uses __syncthreads
// JSON: "pass": "auto",
// CHECK: launch #1 at {{.*}}barrier-child-not-thresholded.cu:{{[0-9]+}}:5 ('parent' -> 'tile'): auto: applied
// CHECK:   child: synchronizes, shared memory
// CHECK:   choice: {{C\+A|A}}:{{[a-z:0-9]+}} (
// CHECK:   rejected: {{.*}}T: not possible: --threshold refuses: child uses __syncthreads; P, P:PO, P:PA:32, P:PAO:32, P:PA:1024, P:PAO:1024: not possible: --promote refuses: the kernel launches another kernel
// CHECK-NOT: threshold: applied
// CHECK: aggregate: applied
#include <cuda_runtime.h>

__global__ void tile(int *out, int n) {
  __shared__ int t[64];
  t[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = t[63 - threadIdx.x];
}

__global__ void parent(int *out, const int *sizes) {
  int n = sizes[blockIdx.x * blockDim.x + threadIdx.x];
  if (n > 0)
    tile<<<(n + 63) / 64, 64>>>(out, n);
}

int main() {
  int *out, *sizes;
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&sizes, 1 << 12);
  parent<<<4, 256>>>(out, sizes);
  cudaDeviceSynchronize();
  return 0;
}

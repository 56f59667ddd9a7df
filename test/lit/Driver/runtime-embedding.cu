// The runtime headers a pass includes are embedded once each; the same text
// in a comment or a string of the user's code is left as it is.
// RUN: %launchopt --quiet --spawn --threshold --coarsen --aggregate=block %s -o %t.cu
// RUN: %FileCheck %s < %t.cu
// RUN: %nvcc-compile %t.cu
// CHECK-COUNT-1: {{^}}// ---- launchopt runtime: launchopt/{{aggregation}}.cuh
// CHECK-NOT: launchopt runtime: launchopt/{{removal|persistent}}.cuh
// CHECK: {{^}}// Notes: #include <launchopt/{{removal}}.cuh> is not needed here.
// CHECK-NEXT: {{^}}const char *note = "#include <launchopt/{{persistent}}.cuh>";
// CHECK-NOT: launchopt runtime: launchopt/{{removal|persistent|aggregation}}.cuh

// Notes: #include <launchopt/removal.cuh> is not needed here.
const char *note = "#include <launchopt/persistent.cuh>";

__global__ void child(int *out, int begin, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    out[begin + i] = i;
}

__global__ void parent(int *out, const int *starts, int parents) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= parents)
    return;
  int begin = starts[p];
  int count = starts[p + 1] - begin;
  child<<<(count + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(out, begin, count);
}

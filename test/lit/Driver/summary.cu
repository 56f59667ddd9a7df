// --list-launches --summary: per registered pass, how many device-side launch
// sites it can transform over all the files, and its refusals grouped by
// reason with names left out; a file that does not parse is named and fails
// the run (exit 1) but the figures are still written.
// RUN: %launchopt --list-launches --summary %s %s | %FileCheck %s
// CHECK: device-side launch sites: 4 in 2 file(s) (0 host-side not counted)
// CHECK-NEXT: --threshold: 2 of 4 transformable
// CHECK-NEXT: --coarsen: 4 of 4 transformable
// CHECK-NEXT: --aggregate=block: 4 of 4 transformable
// CHECK-NEXT: any pass: 4 of 4
// CHECK-NEXT: refusals of --threshold:
// CHECK-NEXT: 2  child uses __syncthreads
// CHECK-NOT: refusals of
// RUN: %launchopt --list-launches --summary --format=json %s | %FileCheck %s --check-prefix=JSON
// JSON: "device_sites": 2,
// JSON: "pass": "threshold",
// JSON-NEXT: "refusals": [
// JSON-NEXT: {
// JSON-NEXT: "reason": "child uses __syncthreads",
// JSON-NEXT: "sites": 1
// RUN: echo 'this is not CUDA' > %t.bad.cu
// RUN: sh -c '%launchopt --list-launches --summary %s %t.bad.cu > %t.out 2> /dev/null; test $? -eq 1'
// RUN: %FileCheck %s --check-prefix=BAD < %t.out
// BAD: device-side launch sites: 2 in 1 file(s)
// BAD: not counted: {{.*}}bad.cu: does not parse
// RUN: sh -c '%launchopt --summary %s 2> %t.err; test $? -eq 2'
// RUN: %FileCheck %s --check-prefix=ALONE < %t.err
// ALONE: launchopt: error: --summary goes with --list-launches

__global__ void child(int *out, int begin, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    out[begin + i] = i;
}

__global__ void tiled(int *out) {
  __shared__ int tile[32];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[31 - threadIdx.x];
}

__global__ void parent(int *out, const int *starts, int parents) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= parents)
    return;
  int begin = starts[p];
  int count = starts[p + 1] - begin;
  child<<<(count + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(out, begin, count);
  if (p == 0)
    tiled<<<1, 32, 0, cudaStreamFireAndForget>>>(out);
}

// The passes come from the registry (lib/Transforms/Passes.def): --help lists
// them in pipeline order with their options, the pipeline runs them in that
// order whatever the order of their flags, and the report names them by the
// registry's word.
// RUN: %launchopt --help | %FileCheck %s --check-prefix=HELP
// HELP: The passes run in this order, whatever the order of their flags:
// HELP-NEXT: T  --threshold
// HELP-NEXT: C  --coarsen
// HELP-NEXT: A  --aggregate
// HELP-DAG: --aggregate=<granularity>
// HELP-DAG: --aggregate-threshold=<uint>
// HELP-DAG: --coarsen-factor=<uint>
// HELP-DAG: --threshold-value=<uint>
// RUN: %launchopt --aggregate=block --threshold %s -o %t.reversed.cu --quiet
// RUN: %launchopt --threshold --aggregate=block %s -o %t.ordered.cu --quiet
// RUN: diff %t.reversed.cu %t.ordered.cu
// RUN: %nvcc-compile %t.ordered.cu
// RUN: %launchopt --threshold %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=VERB
// VERB: remark: not thresholded: child uses __syncthreads
// A pass's flag that takes no value refuses one.
// RUN: sh -c '%launchopt --threshold=4 %s 2> %t.err; test $? -eq 2'
// RUN: %FileCheck %s --check-prefix=NOVALUE < %t.err
// NOVALUE: --threshold

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

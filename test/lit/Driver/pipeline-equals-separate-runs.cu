// T -> C -> A in one run gives the same text as three runs through files.
// RUN: %launchopt --quiet --threshold --coarsen --aggregate=block %s -o %t.one.cu
// RUN: %launchopt --quiet --threshold %s -o %t.t.cu
// RUN: %launchopt --quiet --coarsen %t.t.cu -o %t.tc.cu
// RUN: %launchopt --quiet --aggregate=block %t.tc.cu -o %t.tca.cu
// RUN: diff %t.one.cu %t.tca.cu
// RUN: grep -q __lo_agg___lo_coarse_child %t.one.cu

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

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

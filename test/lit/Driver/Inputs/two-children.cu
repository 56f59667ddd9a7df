// Two device-side launches: one child any pass takes, one with a barrier
// and shared memory (thresholding refuses it).

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

// Children defined in a header, which launchopt never edits: thresholding
// writes their serial copies into the file that includes it.
#pragma once

namespace kern {
__global__ void scaleRange(float *cells, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    cells[i] *= 2.f;
}

template <typename T> __global__ void fillRange(T *cells, int n, T value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    cells[i] = value;
}

__device__ inline int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Its callee reads the built-in index variables: a header's copy cannot
// redirect the call, so the launch is refused.
__global__ void clearRange(float *cells, int n) {
  int i = globalIndex();
  if (i < n)
    cells[i] = 0.f;
}
} // namespace kern

namespace kern {
// Its block works together (shared memory, a barrier): it cannot run in a
// parent thread.
__global__ void blockSums(float *cells, int n) {
  __shared__ float partial[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? cells[i] : 0.f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.f;
    for (int t = 0; t < 128; ++t)
      sum += partial[t];
    cells[blockIdx.x * blockDim.x] = sum;
  }
}
} // namespace kern

// Kernels and a launching helper in a header, which launchopt never edits:
// thresholding copies scaleSegment into the including file; the helper's
// own launch stays as written (the report names it).
#pragma once

namespace kern {
template <typename T>
__global__ void scaleSegment(const T *in, T *out, unsigned n, T factor) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * factor + (T)(blockIdx.x ^ threadIdx.x);
}

__global__ void markSegment(unsigned *marks, unsigned s) {
  if (threadIdx.x == 0)
    marks[s] = s * 2654435761u;
}

__device__ inline void markLater(unsigned *marks, unsigned s) {
  markSegment<<<1, 32, 0, cudaStreamFireAndForget>>>(marks, s);
}
} // namespace kern

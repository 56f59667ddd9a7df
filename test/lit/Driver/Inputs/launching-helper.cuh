// A helper in a header that launches a child: launchopt does not edit
// headers, so the launch is left as written and the report names it.
#pragma once

#ifdef CHILD_IN_HEADER
__global__ void scaleRange(float *cells, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    cells[i] *= 2.f;
}
#else
__global__ void scaleRange(float *cells, int n);
#endif

__device__ inline void scaleLater(float *cells, int n) {
  if (n > 0)
    scaleRange<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(cells, n);
}

// A template's launch names its child through a dependent lookup.
template <int Tile> __global__ void tiled(float *cells);
template <int Tile> __device__ void tiledLater(float *cells) {
  tiled<Tile><<<1, Tile, 0, cudaStreamFireAndForget>>>(cells);
}

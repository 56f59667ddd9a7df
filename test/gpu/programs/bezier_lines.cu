// Adaptive tessellation of quadratic Bezier lines in the shape of the
// common CDP sample: one parent thread per line measures its curvature,
// allocates the line's vertices with device-side cudaMalloc, and launches a
// child over them; a second kernel frees the buffers after they are read.
// Usage: bezier_lines <seed> <output file>
#include "common.cuh"

#define MAX_TESSELLATION 32

struct BezierLine {
  float2 CP[3];
  float2 *vertexPos;
  int nVertices;
};

__forceinline__ __device__ float2 operator+(float2 a, float2 b) {
  return make_float2(a.x + b.x, a.y + b.y);
}
__forceinline__ __device__ float2 operator-(float2 a, float2 b) {
  return make_float2(a.x - b.x, a.y - b.y);
}
__forceinline__ __device__ float2 operator*(float a, float2 b) {
  return make_float2(a * b.x, a * b.y);
}
__forceinline__ __device__ float length(float2 a) { return sqrtf(a.x * a.x + a.y * a.y); }

__device__ float curvatureOf(const BezierLine &line) {
  float2 mid = 0.5f * (line.CP[0] + line.CP[2]);
  return length(line.CP[1] - mid) / length(line.CP[2] - line.CP[0]);
}

__global__ void computeBezierLinePositions(int lidx, BezierLine *bLines, int nTessPoints) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  if (idx < nTessPoints) {
    float u = (float)idx / (float)(nTessPoints - 1);
    float omu = 1.0f - u;
    float B3u[3] = {omu * omu, 2.0f * u * omu, u * u};
    float2 position = make_float2(0, 0);
    for (int i = 0; i < 3; i++)
      position = position + B3u[i] * bLines[lidx].CP[i];
    bLines[lidx].vertexPos[idx] = position;
  }
}

__global__ void computeBezierLinesCDP(BezierLine *bLines, int nLines) {
  int lidx = threadIdx.x + blockDim.x * blockIdx.x;
  if (lidx < nLines) {
    float curvature = curvatureOf(bLines[lidx]);
    int nTessPoints = min(max((int)(curvature * 16.0f), 4), MAX_TESSELLATION);
    if (bLines[lidx].vertexPos == NULL) {
      bLines[lidx].nVertices = nTessPoints;
      cudaMalloc((void **)&bLines[lidx].vertexPos, nTessPoints * sizeof(float2));
    }
    computeBezierLinePositions<<<(nTessPoints + 31) / 32, 32>>>(lidx, bLines,
                                                                  bLines[lidx].nVertices);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(&gpuTestLaunchFailures, 1);
  }
}

__global__ void gatherVertices(const BezierLine *bLines, int nLines, float2 *out) {
  int lidx = threadIdx.x + blockDim.x * blockIdx.x;
  if (lidx < nLines)
    for (int v = 0; v < bLines[lidx].nVertices; ++v)
      out[lidx * MAX_TESSELLATION + v] = bLines[lidx].vertexPos[v];
}

__global__ void freeVertexMem(BezierLine *bLines, int nLines) {
  int lidx = threadIdx.x + blockDim.x * blockIdx.x;
  if (lidx < nLines) {
    cudaFree(bLines[lidx].vertexPos);
    bLines[lidx].vertexPos = NULL;
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <seed> <output>\n", argv[0]);
    return 2;
  }
  Rng rng(std::strtoull(argv[1], nullptr, 10));
  const int nLines = 40000;
  std::vector<BezierLine> lines(nLines);
  for (BezierLine &l : lines) {
    for (int j = 0; j < 3; ++j)
      l.CP[j] = make_float2(float(rng.below(1000)) / 100.0f, float(rng.below(1000)) / 100.0f);
    l.CP[2].x += 1.0f; // never a zero-length chord
    l.vertexPos = nullptr;
    l.nVertices = 0;
  }
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t(nLines) * MAX_TESSELLATION * 16 + (64 << 20)));
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, nLines));
  BezierLine *dLines;
  float2 *dOut;
  CHECK(cudaMalloc(&dLines, sizeof(BezierLine) * nLines));
  CHECK(cudaMalloc(&dOut, sizeof(float2) * nLines * MAX_TESSELLATION));
  CHECK(cudaMemset(dOut, 0, sizeof(float2) * nLines * MAX_TESSELLATION));
  const int block = 64, grid = (nLines + block - 1) / block;
  auto run = [&] {
    CHECK(cudaMemcpy(dLines, lines.data(), sizeof(BezierLine) * nLines, cudaMemcpyHostToDevice));
    computeBezierLinesCDP<<<grid, block>>>(dLines, nLines);
    gatherVertices<<<grid, block>>>(dLines, nLines, dOut);
    freeVertexMem<<<grid, block>>>(dLines, nLines);
    CHECK(cudaGetLastError());
  };
  float ms = medianMs(10, run);
  CHECK(cudaDeviceSynchronize());
  std::vector<float2> out(size_t(nLines) * MAX_TESSELLATION);
  CHECK(cudaMemcpy(out.data(), dOut, sizeof(float2) * out.size(), cudaMemcpyDeviceToHost));
  writeOutput(argv[2], out.data(), sizeof(float2) * out.size());
  std::printf("time_ms %.3f launch_failures %d\n", ms, launchFailures());
}

// Mandelbrot dwells by recursive subdivision (the Mariani-Silver method), in
// the shape of the well-known dynamic-parallelism example: every block of a
// 2-D grid owns a square of the image, its threads evaluate the square's
// border together (strided loop, shared-memory reduction with barriers), and
// its first thread then launches one of three 2-D grids: a fill when the
// whole border has one dwell, the kernel itself on a finer subdivision, or a
// per-pixel kernel at the depth or size bound. Launch errors go through a
// device-side check macro. The result depends only on the window, which the
// seed jitters, so an original and a transformed build write the same dwells.
// Usage: mariani_silver <seed> <output file>
#include "../corpus.cuh"

constexpr int kWidth = 2048;
constexpr int kHeight = 2048;
constexpr int kMaxDwell = 256;
constexpr int kBlockX = 64;
constexpr int kBlockY = 4;
constexpr int kInitialSubdivision = 16;
constexpr int kSubdivision = 4;
constexpr int kMinSquare = 16;
constexpr int kMaxDepth = 4;
// The border is not of one dwell.
constexpr int kMixedDwell = -1;
// Not yet known (the reduction's neutral value).
constexpr int kUnknownDwell = -2;

#define CHECK_DEVICE_LAUNCH()                                                    \
  do {                                                                           \
    if (cudaGetLastError() != cudaSuccess)                                       \
      atomicAdd(&corpusLaunchFailures, 1);                                       \
  } while (0)

struct Complex {
  float re, im;
  __host__ __device__ Complex(float r = 0, float i = 0) : re(r), im(i) {}
  __host__ __device__ Complex operator+(const Complex &o) const {
    return Complex(re + o.re, im + o.im);
  }
  __host__ __device__ Complex operator-(const Complex &o) const {
    return Complex(re - o.re, im - o.im);
  }
  __host__ __device__ Complex operator*(const Complex &o) const {
    return Complex(re * o.re - im * o.im, re * o.im + im * o.re);
  }
  __host__ __device__ float norm2() const { return re * re + im * im; }
};

__host__ __device__ inline int ceilDiv(int a, int b) { return (a + b - 1) / b; }

__device__ int pixelDwell(int x, int y, Complex lo, Complex hi) {
  Complex span = hi - lo;
  Complex c(lo.re + span.re * ((float)x / kWidth), lo.im + span.im * ((float)y / kHeight));
  Complex z = c;
  int dwell = 0;
  while (dwell < kMaxDwell && z.norm2() < 4.0f) {
    z = z * z + c;
    ++dwell;
  }
  return dwell;
}

__device__ int combineDwells(int a, int b) {
  if (a == b || b == kUnknownDwell)
    return a;
  if (a == kUnknownDwell)
    return b;
  return kMixedDwell;
}

// Every thread of the block takes part: the border's dwell if it has one.
__device__ int borderDwell(int x0, int y0, int side, Complex lo, Complex hi) {
  __shared__ int partial[kBlockX * kBlockY];
  int rank = threadIdx.y * blockDim.x + threadIdx.x;
  int threads = blockDim.x * blockDim.y;
  int dwell = kUnknownDwell;
  for (int i = rank; i < 4 * side; i += threads) {
    int edge = i / side, at = i % side;
    int x = edge == 0 ? x0 + at : edge == 1 ? x0 + side - 1 : edge == 2 ? x0 + at : x0;
    int y = edge == 0 ? y0 : edge == 1 ? y0 + at : edge == 2 ? y0 + side - 1 : y0 + at;
    if (x < kWidth && y < kHeight)
      dwell = combineDwells(dwell, pixelDwell(x, y, lo, hi));
  }
  partial[rank] = dwell;
  __syncthreads();
  for (int half = threads / 2; half > 0; half /= 2) {
    if (rank < half)
      partial[rank] = combineDwells(partial[rank], partial[rank + half]);
    __syncthreads();
  }
  return partial[0];
}

__global__ void fillSquare(int *dwells, int x0, int y0, int side, int dwell) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < side && y < side && x0 + x < kWidth && y0 + y < kHeight)
    dwells[(y0 + y) * kWidth + x0 + x] = dwell;
}

__global__ void pixelSquare(int *dwells, Complex lo, Complex hi, int x0, int y0, int side) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < side && y < side && x0 + x < kWidth && y0 + y < kHeight)
    dwells[(y0 + y) * kWidth + x0 + x] = pixelDwell(x0 + x, y0 + y, lo, hi);
}

__global__ void marianiSilver(int *dwells, Complex lo, Complex hi, int x0, int y0, int side,
                              int depth) {
  x0 += side * blockIdx.x;
  y0 += side * blockIdx.y;
  int common = borderDwell(x0, y0, side, lo, hi);
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    if (common != kMixedDwell) {
      dim3 block(kBlockX, kBlockY), grid(ceilDiv(side, kBlockX), ceilDiv(side, kBlockY));
      fillSquare<<<grid, block>>>(dwells, x0, y0, side, common);
    } else if (depth + 1 < kMaxDepth && side / kSubdivision > kMinSquare) {
      dim3 block(blockDim.x, blockDim.y), grid(kSubdivision, kSubdivision);
      marianiSilver<<<grid, block>>>(dwells, lo, hi, x0, y0, side / kSubdivision, depth + 1);
    } else {
      dim3 block(kBlockX, kBlockY), grid(ceilDiv(side, kBlockX), ceilDiv(side, kBlockY));
      pixelSquare<<<grid, block>>>(dwells, lo, hi, x0, y0, side);
    }
    CHECK_DEVICE_LAUNCH();
  }
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  // A window of the usual view, shifted by up to a tenth of its size.
  float dx = ((float)rng.below(2001) - 1000.0f) * 3e-4f;
  float dy = ((float)rng.below(2001) - 1000.0f) * 2e-4f;
  Complex lo(-1.5f + dx, -1.0f + dy), hi(0.5f + dx, 1.0f + dy);
  int *dDwells;
  size_t bytes = sizeof(int) * kWidth * kHeight;
  CORPUS_CHECK(cudaMalloc(&dDwells, bytes));
  CORPUS_CHECK(cudaMemset(dDwells, 0xff, bytes));
  dim3 block(kBlockX, kBlockY), grid(kInitialSubdivision, kInitialSubdivision);
  marianiSilver<<<grid, block>>>(dDwells, lo, hi, 0, 0, kWidth / kInitialSubdivision, 0);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::vector<int> dwells(kWidth * kHeight);
  CORPUS_CHECK(cudaMemcpy(dwells.data(), dDwells, bytes, cudaMemcpyDeviceToHost));
  size_t missing = 0, first = 0;
  for (size_t i = 0; i < dwells.size(); ++i)
    if ((dwells[i] < 0 || dwells[i] > kMaxDwell) && missing++ == 0)
      first = i;
  if (missing) {
    std::fprintf(stderr, "%zu pixels have no dwell, the first %zu (%d); launch_failures %d\n",
                 missing, first, dwells[first], launchFailures());
    return 1;
  }
  return finish(argv[2], asWords(dwells));
}

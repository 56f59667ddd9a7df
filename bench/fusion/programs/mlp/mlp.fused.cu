// Training of a two-layer perceptron (16 inputs, 32 hidden ReLU units, 8
// outputs, squared error) by full-batch gradient descent, written the way
// such code is hand-ported to a GPU without libraries: a kernel per
// operation of the forward and backward pass (products, bias add,
// activation and its derivative, the update) and two-pass reductions for the
// loss and the bias and weight gradients, the kernels sharing the
// activation and gradient arrays. Part of the fusion corpus
// (bench/fusion/README.md).
// Usage: mlp [batch steps seed out.bin [reference.bin]] (default 2^20
// samples, 10 steps). Outputs: the parameters after the steps, the loss of
// every step and the network's output in the last step.
#include "../common/driver.h"

const int D = 16, H = 32, K = 8;
const int Threads = 256;  // per block; the reductions rely on it
const int Parts = 1024;   // blocks of the reductions' first pass
const float Rate = 0.5f;

static dim3 blocks_for(size_t count) { return dim3(unsigned((count + Threads - 1) / Threads)); }

// C (rows x n) = A (rows x m) W (m x n); W is small and stays in cache.
__global__ void matmul(const float *A, const float *W, float *C, int rows, int m, int n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= size_t(rows) * n)
    return;
  size_t r = i / n;
  int j = int(i % n);
  float acc = 0.0f;
  for (int k = 0; k < m; ++k)
    acc += A[r * m + k] * W[k * n + j];
  C[i] = acc;
}

// dA (rows x m) = G (rows x n) W^T, W being m x n.
__global__ void matmul_transposed(const float *G, const float *W, float *dA, int rows, int n,
                                  int m) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= size_t(rows) * m)
    return;
  size_t r = i / m;
  int k = int(i % m);
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += G[r * n + j] * W[k * n + j];
  dA[i] = acc;
}

__global__ void add_bias(float *Z, const float *bias, int rows, int n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < size_t(rows) * n)
    Z[i] += bias[i % n];
}

__global__ void relu(const float *Z, float *A, size_t count) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count)
    A[i] = fmaxf(Z[i], 0.0f);
}

__global__ void relu_backward(const float *dA, const float *Z, float *G, size_t count) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count)
    G[i] = Z[i] > 0.0f ? dA[i] : 0.0f;
}

// d loss / d output for the mean squared error.
__global__ void output_gradient(const float *out, const float *target, float *G, size_t count,
                                float scale) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count)
    G[i] = scale * (out[i] - target[i]);
}

// First pass of the loss: each block's share of scale * sum (out - target)^2.
__global__ void squared_error_partials(const float *out, const float *target, float *partials,
                                       size_t count, float scale) {
  __shared__ float sums[Threads];
  float acc = 0.0f;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    float d = out[i] - target[i];
    acc += d * d;
  }
  sums[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partials[blockIdx.x] = scale * sums[0];
}

// First pass of the column sums of G (rows x n, n a power of two dividing
// the block): the grid-stride keeps every thread on column threadIdx.x % n,
// so the tree stops at n partial sums per block.
__global__ void column_partial_sums(const float *G, float *partials, int rows, int n) {
  __shared__ float sums[Threads];
  float acc = 0.0f;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < size_t(rows) * n;
       i += size_t(gridDim.x) * blockDim.x)
    acc += G[i];
  sums[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s >= n; s /= 2) {
    if (threadIdx.x < s)
      sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x < n)
    partials[blockIdx.x * n + threadIdx.x] = sums[threadIdx.x];
}

// First pass of A^T G (A rows x m, G rows x n): each block sums its share of
// the rows for all m * n entries (at most two per thread).
__global__ void outer_partial_sums(const float *A, const float *G, float *partials, int rows,
                                   int m, int n) {
  int per_block = (rows + gridDim.x - 1) / gridDim.x;
  int first = blockIdx.x * per_block, last = min(rows, first + per_block);
  int o0 = threadIdx.x, o1 = threadIdx.x + blockDim.x;
  float acc0 = 0.0f, acc1 = 0.0f;
  for (int r = first; r < last; ++r) {
    const float *a = A + size_t(r) * m, *g = G + size_t(r) * n;
    if (o0 < m * n)
      acc0 += a[o0 / n] * g[o0 % n];
    if (o1 < m * n)
      acc1 += a[o1 / n] * g[o1 % n];
  }
  if (o0 < m * n)
    partials[size_t(blockIdx.x) * m * n + o0] = acc0;
  if (o1 < m * n)
    partials[size_t(blockIdx.x) * m * n + o1] = acc1;
}

// Second pass of every reduction: entry o of out is the sum of the parts' entries o.
__global__ void finish_sums(const float *partials, float *out, int parts, int count) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= count)
    return;
  float acc = 0.0f;
  for (int p = 0; p < parts; ++p)
    acc += partials[size_t(p) * count + o];
  out[o] = acc;
}

__global__ void sgd_update(float *W, const float *dW, int count, float rate) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    W[i] -= rate * dW[i];
}

struct Parameters {
  std::vector<float> W1, b1, W2, b2;
};

// The same training on the CPU: forward pass in the kernels' order of
// operations, reductions over the batch in double.
static void cpu_train(const std::vector<float> &X, const std::vector<float> &Y, int B,
                      Parameters &p, int steps, std::vector<float> &loss,
                      std::vector<float> &last_output) {
  std::vector<float> Z1(size_t(B) * H), A1(size_t(B) * H), Z2(size_t(B) * K), G2(size_t(B) * K),
      G1(size_t(B) * H);
  const int Chunks = 256;
  float scale = 1.0f / (float(B) * K);
  for (int step = 0; step < steps; ++step) {
#pragma omp parallel for
    for (int r = 0; r < B; ++r) {
      for (int j = 0; j < H; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < D; ++k)
          acc += X[size_t(r) * D + k] * p.W1[k * H + j];
        Z1[size_t(r) * H + j] = acc + p.b1[j];
        A1[size_t(r) * H + j] = std::max(Z1[size_t(r) * H + j], 0.0f);
      }
      for (int j = 0; j < K; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < H; ++k)
          acc += A1[size_t(r) * H + k] * p.W2[k * K + j];
        Z2[size_t(r) * K + j] = acc + p.b2[j];
        G2[size_t(r) * K + j] = 2.0f * scale * (Z2[size_t(r) * K + j] - Y[size_t(r) * K + j]);
      }
      for (int k = 0; k < H; ++k) {
        float acc = 0.0f;
        for (int j = 0; j < K; ++j)
          acc += G2[size_t(r) * K + j] * p.W2[k * K + j];
        G1[size_t(r) * H + k] = Z1[size_t(r) * H + k] > 0.0f ? acc : 0.0f;
      }
    }
    // Per chunk of rows: squared error, db2, dW2, db1, dW1 in double.
    const int Entries = 1 + K + H * K + H + D * H;
    std::vector<double> part(size_t(Chunks) * Entries, 0.0);
#pragma omp parallel for
    for (int c = 0; c < Chunks; ++c) {
      double *e = &part[size_t(c) * Entries];
      double *db2 = e + 1, *dW2 = db2 + K, *db1 = dW2 + H * K, *dW1 = db1 + H;
      for (int r = int(size_t(B) * c / Chunks); r < int(size_t(B) * (c + 1) / Chunks); ++r) {
        const float *x = &X[size_t(r) * D], *a1 = &A1[size_t(r) * H], *g2 = &G2[size_t(r) * K],
                    *g1 = &G1[size_t(r) * H];
        for (int j = 0; j < K; ++j) {
          double d = double(Z2[size_t(r) * K + j]) - Y[size_t(r) * K + j];
          e[0] += d * d;
          db2[j] += g2[j];
          for (int k = 0; k < H; ++k)
            dW2[k * K + j] += double(a1[k]) * g2[j];
        }
        for (int j = 0; j < H; ++j) {
          db1[j] += g1[j];
          for (int k = 0; k < D; ++k)
            dW1[k * H + j] += double(x[k]) * g1[j];
        }
      }
    }
    std::vector<double> total(Entries, 0.0);
    for (int c = 0; c < Chunks; ++c)
      for (int e = 0; e < Entries; ++e)
        total[e] += part[size_t(c) * Entries + e];
    loss.push_back(float(total[0] * scale));
    const double *db2 = &total[1], *dW2 = db2 + K, *db1 = dW2 + H * K, *dW1 = db1 + H;
    for (int i = 0; i < D * H; ++i)
      p.W1[i] -= Rate * float(dW1[i]);
    for (int i = 0; i < H; ++i)
      p.b1[i] -= Rate * float(db1[i]);
    for (int i = 0; i < H * K; ++i)
      p.W2[i] -= Rate * float(dW2[i]);
    for (int i = 0; i < K; ++i)
      p.b2[i] -= Rate * float(db2[i]);
  }
  last_output = Z2;
}

static std::vector<float> outputs(const Parameters &p, const std::vector<float> &loss,
                                  const std::vector<float> &last_output) {
  std::vector<float> all;
  for (const std::vector<float> *v : {&p.W1, &p.b1, &p.W2, &p.b2, &loss, &last_output})
    all.insert(all.end(), v->begin(), v->end());
  return all;
}

#ifdef LAUNCHOPT_FUSION_TIMING
#include <cstdio>
static const char *const __lo_fusion_names[] = {"matmul+add_bias+relu", "matmul#2+add_bias#2+output_gradient", "squared_error_partials", "finish_sums", "column_partial_sums", "finish_sums#2", "finish_sums#3", "matmul_transposed+relu_backward", "column_partial_sums#2", "finish_sums#4", "finish_sums#5+sgd_update", "sgd_update#2", "sgd_update#3", "sgd_update#4", };
static cudaEvent_t __lo_fusion_events[2 * 14];
static double __lo_fusion_ms[14];
static void __lo_fusion_begin(int I) {
  if (!__lo_fusion_events[0])
    for (cudaEvent_t &E : __lo_fusion_events)
      cudaEventCreate(&E);
  cudaEventRecord(__lo_fusion_events[2 * I]);
}
static void __lo_fusion_end(int I) {
  float Ms = 0;
  cudaEventRecord(__lo_fusion_events[2 * I + 1]);
  cudaEventSynchronize(__lo_fusion_events[2 * I + 1]);
  cudaEventElapsedTime(&Ms, __lo_fusion_events[2 * I], __lo_fusion_events[2 * I + 1]);
  __lo_fusion_ms[I] += Ms;
}
static void __lo_fusion_timing_report(int Runs) {
  for (int I = 0; I < 14; ++I)
    printf("launch %d %s: %.4f ms\n", I, __lo_fusion_names[I], __lo_fusion_ms[I] / Runs);
}
#else
#define __lo_fusion_begin(I)
#define __lo_fusion_end(I)
#endif

static __device__ __forceinline__ void __lo_body_matmul(const float *A, const float *W, float *C, int rows, int m, int n, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= size_t(rows) * n)
    return;
  size_t r = i / n;
  int j = int(i % n);
  float acc = 0.0f;
  for (int k = 0; k < m; ++k)
    acc += A[r * m + k] * W[k * n + j];
  C[i] = acc;
}

static __device__ __forceinline__ void __lo_body_add_bias(float *Z, const float *bias, int rows, int n, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < size_t(rows) * n)
    Z[i] += bias[i % n];
}

static __device__ __forceinline__ void __lo_body_relu(const float *Z, float *A, size_t count, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count)
    A[i] = fmaxf(Z[i], 0.0f);
}

// Complex fusion of matmul+add_bias+relu (launchopt fuse).
// On chip: global memory.
__global__ void __lo_fused_0(const float *__lo_arr_X, const float *__lo_arr_W1, float *__lo_arr_Z1, int __lo_m0_rows, int __lo_m0_m, int __lo_m0_n, const float *__lo_arr_b1, int __lo_m1_rows, int __lo_m1_n, float *__lo_arr_A1, size_t __lo_m2_count) {
  __lo_body_matmul(__lo_arr_X, __lo_arr_W1, __lo_arr_Z1, __lo_m0_rows, __lo_m0_m, __lo_m0_n, blockIdx, threadIdx);
  __lo_body_add_bias(__lo_arr_Z1, __lo_arr_b1, __lo_m1_rows, __lo_m1_n, blockIdx, threadIdx);
  __lo_body_relu(__lo_arr_Z1, __lo_arr_A1, __lo_m2_count, blockIdx, threadIdx);
}

static __device__ __forceinline__ void __lo_body_output_gradient(const float *out, const float *target, float *G, size_t count,
                                float scale, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count)
    G[i] = scale * (out[i] - target[i]);
}

// Complex fusion of matmul#2+add_bias#2+output_gradient (launchopt fuse).
// On chip: global memory.
__global__ void __lo_fused_1(const float *__lo_arr_A1, const float *__lo_arr_W2, float *__lo_arr_Z2, int __lo_m0_rows, int __lo_m0_m, int __lo_m0_n, const float *__lo_arr_b2, int __lo_m1_rows, int __lo_m1_n, const float *__lo_arr_Y, float *__lo_arr_G2, size_t __lo_m2_count, float __lo_m2_scale) {
  __lo_body_matmul(__lo_arr_A1, __lo_arr_W2, __lo_arr_Z2, __lo_m0_rows, __lo_m0_m, __lo_m0_n, blockIdx, threadIdx);
  __lo_body_add_bias(__lo_arr_Z2, __lo_arr_b2, __lo_m1_rows, __lo_m1_n, blockIdx, threadIdx);
  __lo_body_output_gradient(__lo_arr_Z2, __lo_arr_Y, __lo_arr_G2, __lo_m2_count, __lo_m2_scale, blockIdx, threadIdx);
}

static __device__ __forceinline__ void __lo_body_matmul_transposed_in_fused_2(const float *G, const float *W, float *dA, int rows, int n,
                                  int m, float &__lo_reg_dA1, bool &__lo_has_dA1, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= size_t(rows) * m)
    return;
  size_t r = i / m;
  int k = int(i % m);
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += G[r * n + j] * W[k * n + j];
  dA[i] = __lo_reg_dA1 = acc, __lo_has_dA1 = true;
}

static __device__ __forceinline__ void __lo_body_relu_backward_in_fused_2(const float *dA, const float *Z, float *G, size_t count, float &__lo_reg_dA1, bool &__lo_has_dA1, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count)
    G[i] = Z[i] > 0.0f ? (__lo_has_dA1 ? __lo_reg_dA1 : (__lo_has_dA1 = true, __lo_reg_dA1 = dA[i])) : 0.0f;
}

// Complex fusion of matmul_transposed+relu_backward (launchopt fuse).
// On chip: registers: dA1.
__global__ void __lo_fused_2(const float *__lo_arr_G2, const float *__lo_arr_W2, float *__lo_arr_dA1, int __lo_m0_rows, int __lo_m0_n, int __lo_m0_m, const float *__lo_arr_Z1, float *__lo_arr_G1, size_t __lo_m1_count) {
  float __lo_reg_dA1;
  bool __lo_has_dA1 = false;
  __lo_body_matmul_transposed_in_fused_2(__lo_arr_G2, __lo_arr_W2, __lo_arr_dA1, __lo_m0_rows, __lo_m0_n, __lo_m0_m, __lo_reg_dA1, __lo_has_dA1, blockIdx, threadIdx);
  __lo_body_relu_backward_in_fused_2(__lo_arr_dA1, __lo_arr_Z1, __lo_arr_G1, __lo_m1_count, __lo_reg_dA1, __lo_has_dA1, blockIdx, threadIdx);
}

static __device__ __forceinline__ void __lo_body_finish_sums_in_fused_3(const float *partials, float *out, int parts, int count, float &__lo_reg_dW1, bool &__lo_has_dW1, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= count)
    return;
  float acc = 0.0f;
  for (int p = 0; p < parts; ++p)
    acc += partials[size_t(p) * count + o];
  out[o] = __lo_reg_dW1 = acc, __lo_has_dW1 = true;
}

static __device__ __forceinline__ void __lo_body_sgd_update_in_fused_3(float *W, const float *dW, int count, float rate, float &__lo_reg_dW1, bool &__lo_has_dW1, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    W[i] -= rate * (__lo_has_dW1 ? __lo_reg_dW1 : (__lo_has_dW1 = true, __lo_reg_dW1 = dW[i]));
}

// Complex fusion of finish_sums#5+sgd_update (launchopt fuse).
// On chip: registers: dW1.
__global__ void __lo_fused_3(const float *__lo_arr_dW1_partials, float *__lo_arr_dW1, int __lo_m0_parts, int __lo_m0_count, float *__lo_arr_W1, int __lo_m1_count, float __lo_m1_rate) {
  float __lo_reg_dW1;
  bool __lo_has_dW1 = false;
  __lo_body_finish_sums_in_fused_3(__lo_arr_dW1_partials, __lo_arr_dW1, __lo_m0_parts, __lo_m0_count, __lo_reg_dW1, __lo_has_dW1, blockIdx, threadIdx);
  __lo_body_sgd_update_in_fused_3(__lo_arr_W1, __lo_arr_dW1, __lo_m1_count, __lo_m1_rate, __lo_reg_dW1, __lo_has_dW1, blockIdx, threadIdx);
}

int main(int argc, char **argv) {
  RunArgs args = parse_args(argc, argv, 1 << 20, 10);
  int B = int(args.size);
  if (B < Parts) {
    fprintf(stderr, "mlp: the batch must hold at least %d samples\n", Parts);
    return 2;
  }
  unsigned long long seed = args.seed;
  // Inputs in [-1, 1]; targets from a random smooth function of them.
  std::vector<float> hX(size_t(B) * D), hY(size_t(B) * K), teacher(D * K);
  fill_uniform(hX, seed, -1.0f, 1.0f);
  fill_uniform(teacher, seed, -0.5f, 0.5f);
  for (int r = 0; r < B; ++r)
    for (int j = 0; j < K; ++j) {
      float s = 0.0f;
      for (int k = 0; k < D; ++k)
        s += hX[size_t(r) * D + k] * teacher[k * K + j];
      hY[size_t(r) * K + j] = sinf(s);
    }
  Parameters init;
  init.W1.resize(D * H);
  init.W2.resize(H * K);
  init.b1.assign(H, 0.0f);
  init.b2.assign(K, 0.0f);
  fill_uniform(init.W1, seed, -0.25f, 0.25f);
  fill_uniform(init.W2, seed, -0.18f, 0.18f);

  size_t nX = size_t(B) * D, nH = size_t(B) * H, nK = size_t(B) * K;
  float *X, *Y, *Z1, *A1, *Z2, *G2, *dA1, *G1, *W1, *b1, *W2, *b2, *dW1, *db1, *dW2, *db2;
  float *loss_partials, *db2_partials, *dW2_partials, *db1_partials, *dW1_partials, *loss;
  struct {
    float **p;
    const char *name;
    size_t n;
  } arrays[] = {{&X, "X", nX}, {&Y, "Y", nK}, {&Z1, "Z1", nH}, {&A1, "A1", nH},
                {&Z2, "Z2", nK}, {&G2, "G2", nK}, {&dA1, "dA1", nH}, {&G1, "G1", nH},
                {&W1, "W1", D * H}, {&b1, "b1", H}, {&W2, "W2", H * K}, {&b2, "b2", K},
                {&dW1, "dW1", D * H}, {&db1, "db1", H}, {&dW2, "dW2", H * K}, {&db2, "db2", K},
                {&loss_partials, "loss_partials", Parts},
                {&db2_partials, "db2_partials", size_t(Parts) * K},
                {&dW2_partials, "dW2_partials", size_t(Parts) * H * K},
                {&db1_partials, "db1_partials", size_t(Parts) * H},
                {&dW1_partials, "dW1_partials", size_t(Parts) * D * H},
                {&loss, "loss", size_t(args.steps)}};
  for (auto &a : arrays) {
    CHECK(cudaMalloc(a.p, a.n * sizeof(float)));
    describe_array(a.name, a.n, sizeof(float));
  }
  CHECK(cudaMemcpy(X, hX.data(), nX * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(Y, hY.data(), nK * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(W1, init.W1.data(), D * H * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b1, init.b1.data(), H * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(W2, init.W2.data(), H * K * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b2, init.b2.data(), K * sizeof(float), cudaMemcpyHostToDevice));

  float scale = 1.0f / (float(B) * K);
  StepTimer timer(args.steps);
  for (int step = 0; step < args.steps; ++step) {
    timer.begin(step);
    // Forward.
    __lo_fusion_begin(0);
  __lo_fused_0<<<blocks_for(nH), Threads>>>(X, W1, Z1, B, D, H, b1, B, H, A1, nH);
  __lo_fusion_end(0);
  __lo_fusion_begin(1);
  __lo_fused_1<<<blocks_for(nK), Threads>>>(A1, W2, Z2, B, H, K, b2, B, K, Y, G2, nK, 2.0f * scale);
  __lo_fusion_end(1);
  __lo_fusion_begin(2);
  squared_error_partials<<<Parts, Threads>>>(Z2, Y, loss_partials, nK, scale);
  __lo_fusion_end(2);
  __lo_fusion_begin(3);
  finish_sums<<<1, 32>>>(loss_partials, loss + step, Parts, 1);
  __lo_fusion_end(3);
  __lo_fusion_begin(4);
  column_partial_sums<<<Parts, Threads>>>(G2, db2_partials, B, K);
  __lo_fusion_end(4);
  __lo_fusion_begin(5);
  finish_sums<<<1, K>>>(db2_partials, db2, Parts, K);
  __lo_fusion_end(5);
    // Backward.
    outer_partial_sums<<<Parts, Threads>>>(A1, G2, dW2_partials, B, H, K);
    __lo_fusion_begin(6);
  finish_sums<<<1, H * K>>>(dW2_partials, dW2, Parts, H * K);
  __lo_fusion_end(6);
  __lo_fusion_begin(7);
  __lo_fused_2<<<blocks_for(nH), Threads>>>(G2, W2, dA1, B, K, H, Z1, G1, nH);
  __lo_fusion_end(7);
  __lo_fusion_begin(8);
  column_partial_sums<<<Parts, Threads>>>(G1, db1_partials, B, H);
  __lo_fusion_end(8);
  __lo_fusion_begin(9);
  finish_sums<<<1, H>>>(db1_partials, db1, Parts, H);
  __lo_fusion_end(9);
    outer_partial_sums<<<Parts, Threads>>>(X, G1, dW1_partials, B, D, H);
    __lo_fusion_begin(10);
  __lo_fused_3<<<2, Threads>>>(dW1_partials, dW1, Parts, D * H, W1, D * H, Rate);
  __lo_fusion_end(10);
  __lo_fusion_begin(11);
  sgd_update<<<1, H>>>(b1, db1, H, Rate);
  __lo_fusion_end(11);
  __lo_fusion_begin(12);
  sgd_update<<<1, H * K>>>(W2, dW2, H * K, Rate);
  __lo_fusion_end(12);
  __lo_fusion_begin(13);
  sgd_update<<<1, K>>>(b2, db2, K, Rate);
  __lo_fusion_end(13);
    // Update.
    timer.end(step);
  }
  CHECK(cudaGetLastError());
  float median, minimum;
  timer.summary(2, median, minimum);
  Parameters trained = init;
  std::vector<float> gpu_loss(args.steps), gpu_output(nK);
  CHECK(cudaMemcpy(trained.W1.data(), W1, D * H * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(trained.b1.data(), b1, H * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(trained.W2.data(), W2, H * K * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(trained.b2.data(), b2, K * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gpu_loss.data(), loss, args.steps * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gpu_output.data(), Z2, nK * sizeof(float), cudaMemcpyDeviceToHost));
#ifdef LAUNCHOPT_FUSION_TIMING
  __lo_fusion_timing_report(args.steps);
#endif
  printf("loss: first step %.6f, last step %.6f\n", gpu_loss.front(), gpu_loss.back());

  std::vector<float> cpu_loss, cpu_output;
  cpu_train(hX, hY, B, init, args.steps, cpu_loss, cpu_output);
  CheckResult check = check_outputs(args, outputs(trained, gpu_loss, gpu_output),
                                    outputs(init, cpu_loss, cpu_output), 1e-3, 1e-2, 1e-5);
  return report_result("mlp", args, std::to_string(B) + "x" + std::to_string(D) + "-" +
                                        std::to_string(H) + "-" + std::to_string(K),
                       check, median, minimum);
}

// Shapes of real code together: a child in a namespace launched qualified, a
// template child launched from a const member function of a class template,
// a `const __grid_constant__` parameter and __launch_bounds__, a launch
// configuration read from a struct with dynamic shared memory, launches in a
// switch with a fallthrough and in a loop with continue, a cooperative-groups
// rank test, and two kernels that launch each other. Every pipeline below
// transforms it without a warning from the parse (Clang 19 does not know
// grid_constant; nvcc does) and nvcc compiles the outputs.
// RUN: %launchopt --auto --assume-independent-children %s -o %t-auto.cu 2> %t-auto.remarks
// RUN: %FileCheck %s --check-prefix=AUTO --implicit-check-not=warning: --implicit-check-not=error: < %t-auto.remarks
// RUN: %nvcc-compile %t-auto.cu
// RUN: %launchopt --threshold --coarsen --aggregate=grid %s -o %t-tca.cu 2> %t-tca.remarks
// RUN: %FileCheck %s --check-prefix=TCA --implicit-check-not=error: < %t-tca.remarks
// RUN: %nvcc-compile %t-tca.cu
// RUN: %launchopt --spawn --assume-independent-children %s -o %t-s.cu 2> %t-s.remarks
// RUN: %nvcc-compile %t-s.cu

#include <cooperative_groups.h>
namespace cg = cooperative_groups;
namespace solver {
template <typename T>
__global__ void grow(T *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += T(1);
}
template <typename T> struct Tree {
  T *data;
  int size;
  __device__ void expand(int n) const { grow<T><<<(n + 31) / 32, 32>>>(data, n); }
};
struct Params { float *out; int n; float scale; };
__global__ void __launch_bounds__(128, 4) scaleAll(const __grid_constant__ Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] *= p.scale;
}
struct Config { dim3 grid, block; size_t shared; };
template <typename T>
__global__ void sumShared(const T *in, T *out, int n) {
  extern __shared__ unsigned char raw[];
  T *s = reinterpret_cast<T *>(raw);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  if (threadIdx.x == 0) {
    T acc = 0;
    for (int k = 0; k < blockDim.x; ++k) acc += s[k];
    atomicAdd(out, acc);
  }
}
} // namespace solver

__global__ void pingB(int *v, int depth);
__global__ void pingA(int *v, int depth) {
  if (threadIdx.x == 0 && depth > 0) pingB<<<1, 32>>>(v, depth - 1);
  atomicAdd(v, 1);
}
__global__ void pingB(int *v, int depth) {
  if (threadIdx.x == 0 && depth > 0) pingA<<<1, 32>>>(v, depth - 1);
  atomicAdd(v + 1, 1);
}

template <int BS>
__global__ void tiled(float *out, int n) {
  int i = blockIdx.x * BS + threadIdx.x;
  if (i < n) out[i] = float(BS);
}
template <int BS>
__global__ void __launch_bounds__(256) parent(solver::Tree<float> tree, float *out, const int *sizes, int m,
                                              solver::Params p, solver::Config cfg, float *sums) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m) return;
  int n = sizes[t];
  switch (n % 3) {
  case 0:
    tree.expand(n);
    break;
  case 1:
    tiled<BS><<<(n + BS - 1) / BS, BS>>>(out + t * 1024, n);
    [[fallthrough]];
  default:
    for (int k = 0; k < 3; ++k) {
      if (k == 1) continue;
      solver::scaleAll<<<(p.n + 127) / 128, 128>>>(p);
    }
  }
  auto g = cg::this_thread_block();
  if (g.thread_rank() == 0)
    solver::sumShared<float><<<cfg.grid, cfg.block, cfg.shared>>>(out, sums, n);
}
int main() {
  float *d, *out, *sums; int *sizes, *v;
  cudaMalloc(&d, 1 << 20); cudaMalloc(&out, 1 << 24); cudaMalloc(&sums, 64); cudaMalloc(&sizes, 4096); cudaMalloc(&v, 8);
  solver::Tree<float> tree{d, 1000};
  solver::Params p{out, 1000, 2.0f};
  solver::Config cfg{dim3(8), dim3(128), 128 * sizeof(float)};
  parent<64><<<4, 256>>>(tree, out, sizes, 1000, p, cfg, sums);
  pingA<<<1, 32>>>(v, 10);
  cudaDeviceSynchronize();
}

// AUTO-DAG: remark: auto applied to launch of 'grow'
// AUTO-DAG: remark: auto applied to launch of 'pingB'
// AUTO-DAG: remark: auto applied to launch of 'scaleAll'
// AUTO-DAG: remark: auto applied to launch of 'sumShared'
// TCA-DAG: remark: aggregate applied to launch of '__lo_coarse_pingA'
// TCA-DAG: remark: coarsen applied to launch of 'sumShared'

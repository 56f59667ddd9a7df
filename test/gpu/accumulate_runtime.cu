// Checks of launchopt/accumulate.cuh on the GPU: applyInWarp and flushWarp
// against the same updates applied one by one, for every operation, for
// lanes that name one address, runs of a few, or each its own (run with
// LAUNCHOPT_WARP_COMBINE_MIN at its default and at 2), with full and partial
// warps and lanes that leave early. Values are whole numbers, so float sums
// are exact in any order. Prints one line; exits 1 on a mismatch.
#include <launchopt/accumulate.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace acc = launchopt::accumulate;

namespace {

constexpr int kTargets = 64;

// The address a thread updates: all alike, a few runs of consecutive
// threads (aggregated children), or scattered.
__host__ __device__ int targetOf(int shape, int t) {
  if (shape == 0)
    return 0;
  if (shape == 1)
    return (t / 13) % kTargets;
  if (shape == 2)
    return (t / 5 + t / 90) % kTargets;
  return (t * 2654435761u >> 7) % kTargets;
}

// The thread's value, and whether it takes part (some threads leave early).
__host__ __device__ int valueOf(int t) { return (t * 37 + 11) % 101 - 50; }
__host__ __device__ bool takesPart(int t, int gap) { return gap == 0 || t % gap != 0; }

struct Targets {
  float f[kTargets];
  double d[kTargets];
  int sum[kTargets], sub[kTargets], min[kTargets], max[kTargets];
  unsigned and_[kTargets], or_[kTargets], xor_[kTargets];
};

void initialize(Targets &T) {
  for (int i = 0; i < kTargets; ++i) {
    T.f[i] = 0;
    T.d[i] = 0;
    T.sum[i] = T.sub[i] = 0;
    T.min[i] = 1 << 30;
    T.max[i] = -(1 << 30);
    T.and_[i] = ~0u;
    T.or_[i] = T.xor_[i] = 0;
  }
}

template <bool Slots>
__global__ void update(Targets *T, int n, int shape, int gap) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n || !takesPart(t, gap))
    return;
  const int k = targetOf(shape, t), v = valueOf(t);
  const unsigned bits = 1u << (t % 32) | 1u << ((t / 3) % 32);
  if constexpr (Slots) {
    // A coarsened copy's path: the thread's update in its slot, then the
    // warp's slots combined.
    auto s = acc::start<acc::Add<acc::Scope::Device>>(&T->f[k]);
    acc::put<acc::Add<acc::Scope::Device>>(&s, &T->f[k], static_cast<float>(v));
    acc::flushWarp<acc::Add<acc::Scope::Device>>(s, &T->f[k]);
    auto m = acc::start<acc::Max<acc::Scope::Device>>(&T->max[k]);
    acc::put<acc::Max<acc::Scope::Device>>(&m, &T->max[k], v);
    acc::flushWarp<acc::Max<acc::Scope::Device>>(m, &T->max[k]);
    return;
  }
  acc::applyInWarp<acc::Add<acc::Scope::Device>>(&T->f[k], static_cast<float>(v));
  acc::applyInWarp<acc::Add<acc::Scope::Device>>(&T->d[k], 0.5 * v);
  acc::applyInWarp<acc::Add<acc::Scope::Block>>(&T->sum[k], v);
  acc::applyInWarp<acc::Sub<acc::Scope::Device>>(&T->sub[k], v);
  acc::applyInWarp<acc::Min<acc::Scope::Device>>(&T->min[k], v);
  acc::applyInWarp<acc::Max<acc::Scope::Device>>(&T->max[k], v);
  acc::applyInWarp<acc::And<acc::Scope::Device>>(&T->and_[k], ~bits);
  acc::applyInWarp<acc::Or<acc::Scope::Device>>(&T->or_[k], bits);
  acc::applyInWarp<acc::Xor<acc::Scope::Device>>(&T->xor_[k], bits);
  // A slotless put is applyInWarp.
  acc::put<acc::Add<acc::Scope::Device>>(static_cast<acc::Slot<double> *>(nullptr), &T->d[k], 0.5 * v);
}

// The expected values, from the same updates applied one by one.
void expected(Targets &T, int n, int shape, int gap, bool slots) {
  initialize(T);
  for (int t = 0; t < n; ++t) {
    if (!takesPart(t, gap))
      continue;
    const int k = targetOf(shape, t), v = valueOf(t);
    const unsigned bits = 1u << (t % 32) | 1u << ((t / 3) % 32);
    T.f[k] += v;
    T.max[k] = v > T.max[k] ? v : T.max[k];
    if (slots)
      continue;
    T.d[k] += v;
    T.sum[k] += v;
    T.sub[k] -= v;
    T.min[k] = v < T.min[k] ? v : T.min[k];
    T.and_[k] &= ~bits;
    T.or_[k] |= bits;
    T.xor_[k] ^= bits;
  }
}

bool same(const Targets &A, const Targets &B) {
  for (int i = 0; i < kTargets; ++i)
    if (A.f[i] != B.f[i] || A.d[i] != B.d[i] || A.sum[i] != B.sum[i] || A.sub[i] != B.sub[i] ||
        A.min[i] != B.min[i] || A.max[i] != B.max[i] || A.and_[i] != B.and_[i] ||
        A.or_[i] != B.or_[i] || A.xor_[i] != B.xor_[i])
      return false;
  return true;
}

} // namespace

int main() {
  Targets *device = nullptr;
  if (cudaMallocManaged(&device, sizeof(Targets)) != cudaSuccess) {
    std::printf("accumulate_runtime: no managed memory\n");
    return 1;
  }
  int failures = 0, cases = 0;
  for (int slots = 0; slots < 2; ++slots)
    for (int shape = 0; shape < 4; ++shape)
      for (int gap : {0, 3, 32})
        for (int block : {32, 96, 100, 256}) {
          const int n = 20011;
          initialize(*device);
          if (slots)
            update<true><<<(n + block - 1) / block, block>>>(device, n, shape, gap);
          else
            update<false><<<(n + block - 1) / block, block>>>(device, n, shape, gap);
          if (cudaDeviceSynchronize() != cudaSuccess) {
            std::printf("accumulate_runtime: kernel failed\n");
            return 1;
          }
          Targets want;
          expected(want, n, shape, gap, slots);
          ++cases;
          if (!same(want, *device)) {
            ++failures;
            std::printf("accumulate_runtime: mismatch (slots %d, shape %d, gap %d, block %d)\n",
                        slots, shape, gap, block);
          }
        }
  std::printf("accumulate_runtime: %d of %d cases equal to one-by-one updates\n", cases - failures,
              cases);
  return failures ? 1 : 0;
}

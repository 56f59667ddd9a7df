// launchopt: the configuration check of removed launches.
// ---- launchopt runtime: launchopt/removal_guard.cuh ----
// launchopt device runtime: whether a removed launch would have started.
//
// A launch whose configuration the device refuses fails, and its child never
// runs; the code that replaces a removed launch asks this first, so that it
// runs the child exactly when the launch would have. Self-contained: outputs
// of T4 use nothing else of the runtime.

#include <cuda_runtime.h>

namespace launchopt {
namespace removal {

// Whether a launch with this configuration would start: an empty grid, or a
// grid or block over the limits of compute capability 9.0 (a wrapped count
// gives one), makes it fail, and then its child never runs.
static __device__ inline bool launchable(const dim3 &grid, const dim3 &block) {
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  return grid.x >= 1 && grid.x <= 0x7fffffffu && grid.y >= 1 && grid.y <= 65535u && grid.z >= 1 &&
         grid.z <= 65535u && block.x >= 1 && block.x <= 1024u && block.y >= 1 &&
         block.y <= 1024u && block.z >= 1 && block.z <= 64u && threads <= 1024u;
}

} // namespace removal
} // namespace launchopt
// ---- end of launchopt/removal_guard.cuh ----

// ---- launchopt runtime: launchopt/accumulate.cuh ----
// launchopt device runtime: atomic updates of one address, combined in a
// serial copy.
//
// A child whose threads each update one address that every thread of the
// child names alike (`atomicAdd(sum, v)`, `atomicMax(&best[row], d)`),
// without using the old value, costs its serial copy one atomic per child
// thread: a chain of read-modify-writes of one word in the L2, which a
// parent thread issues one after another. The serial copy (launchopt's
// thresholding, launch removal and spawn) instead combines the updates in a
// register and applies them with one atomic when the child's last thread is
// done. No thread of the child reads that address or fences, so no one can
// tell the difference but by timing: the child's threads could have run in
// any order and at any time before the parent's grid ends. Sums of floating
// point values are added in another order than any one serial run would,
// as in the child's own grid, whose threads race.
//
// A coarsened child combines its updates the same way over the original
// blocks each of its threads runs. Where lanes of a warp run threads of one
// child at once (a coarsened or aggregated block, a child's threads packed
// by aggregation, a per-thread copy's pooled rounds), the lanes that name
// one address combine their float sums by shuffles and one of them applies
// the result.
//
// -DLAUNCHOPT_COMBINE_ATOMICS=0 applies every update at once, as written.

#ifndef LAUNCHOPT_COMBINE_ATOMICS
#define LAUNCHOPT_COMBINE_ATOMICS 1
#endif

namespace launchopt {
namespace accumulate {

// The combined updates of one address, from the operation's identity.
template <typename T> struct Slot {
  T value;
};

// The slot for an address (`decltype(slotFor(sum))`), whatever qualifies
// the pointer itself.
template <typename T> __device__ Slot<T> slotFor(T *address);

enum class Scope { Device, Block, System };

// The largest and smallest values of an integer type.
template <typename T> __device__ constexpr T largestOf() {
  return T(-1) > T(0) ? T(-1) : T(~0ull >> (65 - 8 * sizeof(T)));
}
template <typename T> __device__ constexpr T smallestOf() {
  return T(-1) > T(0) ? T(0) : T(-largestOf<T>() - 1);
}

#define LAUNCHOPT_ACCUMULATE_OP(Name, Combine, Identity)                                         \
  template <Scope S> struct Name {                                                               \
    template <typename T> __device__ static T combine(T a, T b) { return Combine; }              \
    template <typename T> __device__ static constexpr T identity() { return Identity; }          \
    template <typename T, typename V> __device__ static void apply(T *address, V value) {       \
      if constexpr (S == Scope::Block)                                                           \
        atomic##Name##_block(address, value);                                                    \
      else if constexpr (S == Scope::System)                                                     \
        atomic##Name##_system(address, value);                                                   \
      else                                                                                       \
        atomic##Name(address, value);                                                            \
    }                                                                                            \
  };
LAUNCHOPT_ACCUMULATE_OP(Add, a + b, T(0))
LAUNCHOPT_ACCUMULATE_OP(Sub, a + b, T(0)) // the subtrahends add up
LAUNCHOPT_ACCUMULATE_OP(Min, b < a ? b : a, largestOf<T>())
LAUNCHOPT_ACCUMULATE_OP(Max, a < b ? b : a, smallestOf<T>())
LAUNCHOPT_ACCUMULATE_OP(And, a & b, T(~T(0)))
LAUNCHOPT_ACCUMULATE_OP(Or, a | b, T(0))
LAUNCHOPT_ACCUMULATE_OP(Xor, a ^ b, T(0))
#undef LAUNCHOPT_ACCUMULATE_OP

// A slot for the address's updates by Op, holding its identity.
template <typename Op, typename T> __device__ inline Slot<T> start(T *) {
  return Slot<T>{Op::template identity<T>()};
}

// Lanes of a warp that update one address combine their values first only
// for floating point sums: the GPU applies a warp's integer updates of one
// word well by itself (tc's counts ran 0.91x of direct updates when combined
// in the warp, measured on the H200), while float sums of an aggregated
// child ran 1.4-2.6x faster combined (spmv kron20).
template <typename T> struct CombinesInWarp {
  static constexpr bool value = false;
};
template <> struct CombinesInWarp<float> {
  static constexpr bool value = true;
};
template <> struct CombinesInWarp<double> {
  static constexpr bool value = true;
};

// Groups of fewer lanes apply their updates one by one: a few updates of
// one word cost less than the rounds that would combine them (a chosen
// bound; a mesh's rows of five, packed side by side, ran 0.80x combined
// with it too, from the grouping itself).
#ifndef LAUNCHOPT_WARP_COMBINE_MIN
#define LAUNCHOPT_WARP_COMBINE_MIN 8
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
// The lanes here now that name the same address add their values up a
// tree: true at the lowest of them, whose value is then the group's; also
// true at every lane of a group too small to combine, which keeps its own.
// Lanes that name other addresses form groups of their own, so a warp that
// runs the threads of several children (aggregation packs them) combines
// each child's part.
template <typename Op, typename T> __device__ inline bool combineInWarp(T &value, T *address) {
  const unsigned here = __activemask();
  const unsigned peers = __match_any_sync(here, reinterpret_cast<unsigned long long>(address));
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (peers == 0xffffffffu) {
#pragma unroll
    for (int distance = 16; distance > 0; distance /= 2)
      value = Op::combine(value, static_cast<T>(__shfl_xor_sync(peers, value, distance)));
    return lane == 0;
  }
  const unsigned size = __popc(peers);
  const unsigned large = __ballot_sync(here, size >= LAUNCHOPT_WARP_COMBINE_MIN);
  if (size < LAUNCHOPT_WARP_COMBINE_MIN)
    return true;
  // Rank r takes rank r + d's partial sum while r is a multiple of 2d; the
  // lanes of the large groups shuffle in every round, each group for as
  // many rounds as the largest needs.
  const unsigned rank = __popc(peers & ((1u << lane) - 1));
  for (unsigned distance = 1; __any_sync(large, distance < size); distance *= 2) {
    const unsigned source = lane < 31 ? __fns(peers, lane + 1, distance) : 0xffffffffu;
    const T other = __shfl_sync(large, value, source == 0xffffffffu ? lane : source);
    if (rank % (2 * distance) == 0 && source != 0xffffffffu)
      value = Op::combine(value, other);
  }
  return rank == 0;
}
#endif

// One update applied at once, combined with the updates of the warp's other
// lanes here that name the same address (an aggregated child's threads, a
// per-thread copy's pooled rounds): one atomic per address and warp.
template <typename Op, typename T, typename V> __device__ inline void applyInWarp(T *address, V value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (LAUNCHOPT_COMBINE_ATOMICS && CombinesInWarp<T>::value) {
    T combined = static_cast<T>(value);
    if (combineInWarp<Op>(combined, address))
      Op::apply(address, combined);
    return;
  }
#endif
  Op::apply(address, value);
}

// One thread's update: into the slot, or to memory at once without one.
// The value converts to the pointee as the atomic's argument would.
template <typename Op, typename T, typename V>
__device__ inline void put(Slot<T> *slot, T *address, V value) {
  if (!slot) {
    applyInWarp<Op>(address, value);
    return;
  }
  if (!LAUNCHOPT_COMBINE_ATOMICS) {
    Op::apply(address, value);
    return;
  }
  slot->value = Op::combine(slot->value, static_cast<T>(value));
}

// After the child's last thread: the combined update, unless it changes
// nothing (the identity; for a float sum, a zero: only a -0.0 stored could
// tell).
template <typename Op, typename T> __device__ inline void flush(const Slot<T> &slot, T *address) {
  if (!(slot.value == Op::template identity<T>()))
    Op::apply(address, slot.value);
}

// After a coarsened block's original blocks: the slots of the warp's lanes
// that name one address (a child's block) are combined and one lane applies
// them.
template <typename Op, typename T>
__device__ inline void flushWarp(const Slot<T> &slot, T *address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (LAUNCHOPT_COMBINE_ATOMICS && CombinesInWarp<T>::value) {
    T value = slot.value;
    if (combineInWarp<Op>(value, address) && !(value == Op::template identity<T>()))
      Op::apply(address, value);
    return;
  }
#endif
  flush<Op>(slot, address);
}

} // namespace accumulate
} // namespace launchopt
// ---- end of launchopt/accumulate.cuh ----
// SpMV (CSR), naive CUDA dynamic parallelism: one parent thread per row
// launches a child grid with one thread per non-zero of the row; each child
// thread adds its product into y[row] atomically.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
// On the H100 the pool stopped accepting launches near 550k pending children
// even with a larger limit set, so a parent grid covers at most kMaxPending
// items and the host issues several when the work list is longer.
constexpr int kMaxPending = 1 << 18;

__device__ unsigned int spmv_failed_launches;

__global__ void spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin,
                                  int edge_end, float* y_row) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edge_end) atomicAdd(y_row, values[e] * x[col_indices[e]]);
}

// launchopt: one thread of 'spmv_row_products', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_ithread_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim, decltype(launchopt::accumulate::slotFor(y_row)) *__lo_acc0 = nullptr)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edge_end) launchopt::accumulate::put<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, y_row, values[e] * x[col_indices[e]]);
}
}

// launchopt: whether the guard of 'spmv_row_products' ends this thread and every later one in x:
// !(e < edge_end)
static __device__ bool __lo_ithread_exit_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  (void)e;
  return !(e < edge_end);
}

// launchopt: every thread of a 'spmv_row_products' grid, one after another (serial version).
static __device__ void __lo_inline_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  // launchopt: the child's atomic updates of one address, combined here and applied once.
  auto __lo_acc0 = launchopt::accumulate::start<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(y_row);
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_ithread_exit_spmv_row_products(col_indices, values, x, edge_begin, edge_end, y_row, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_ithread_spmv_row_products(col_indices, values, x, edge_begin, edge_end, y_row, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim, &__lo_acc0);
            }
    }
  launchopt::accumulate::flush<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, y_row);
}

__global__ void spmv_rows(GraphDev a, int first_row, const float* x, float* y) {
  int r = first_row + blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= a.num_nodes) return;
  int begin = a.row_offsets[r], end = a.row_offsets[r + 1];
  y[r] = 0.0f;
  if (end == begin) return;
  { // launchopt: launch of 'spmv_row_products' removed (T4): this thread runs the child grid
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
#ifdef __CUDACC_RDC__
    } else if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x)) {
      // not the ceiling of its count (a wrapped count): launched as written
      spmv_row_products<<<__lo_grid1, __lo_block1>>>(a.col_indices, a.values, x,
                                                                                     begin, end, &y[r]);
#endif
    } else {
      __lo_inline_spmv_row_products(a.col_indices, a.values, x,
                                                                                     begin, end, &y[r], __lo_grid1, __lo_block1);
    }
  }
  if (cudaSuccess != cudaSuccess) atomicAdd(&spmv_failed_launches, 1u);
}

}  // namespace

// Entry: parent grids over the rows, kMaxPending rows each.
int spmv_run(const GraphDev& a, const float* d_x, float* d_y) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(a.num_nodes < kMaxPending ? a.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(spmv_failed_launches, &zero, sizeof zero);
  for (int first = 0; first < a.num_nodes; first += kMaxPending) {
    int count = a.num_nodes - first < kMaxPending ? a.num_nodes - first : kMaxPending;
    spmv_rows<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(a, first, d_x, d_y);
  }
  cudaMemcpyFromSymbol(&failed, spmv_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

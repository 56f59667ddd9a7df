// launchopt: each block of a coarsened child runs LAUNCHOPT_CFACTOR
// original blocks. Override with -DLAUNCHOPT_CFACTOR=<blocks>.
#ifndef LAUNCHOPT_CFACTOR
#define LAUNCHOPT_CFACTOR 4
#endif

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
// Triangle counting, naive CUDA dynamic parallelism: a parent thread per
// vertex u launches a child grid with a thread per neighbour v > u; the child
// thread intersects the sorted lists N(u) and N(v) above v, so every triangle
// u < v < w is counted once.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
constexpr int kMaxPending = 1 << 18;  // see bfs_cdp.cu: parent grids are chunked to the pending-launch pool

__device__ unsigned int tc_failed_launches;

__global__ void tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int v = g.col_indices[e];
  if (v <= u) return;
  int i = e + 1, j = g.row_offsets[v];
  const int ie = edge_end, je = g.row_offsets[v + 1];
  while (j < je && g.col_indices[j] <= v) ++j;
  unsigned long long c = 0;
  while (i < ie && j < je) {
    int a = g.col_indices[i], b = g.col_indices[j];
    c += a == b;
    i += a <= b;
    j += b <= a;
  }
  if (c) atomicAdd(count, c);
}

// launchopt: one original block of 'tc_intersect' inside a coarsened block; the locals
// below shadow the built-in index variables with the original block's values.
static __device__ void __lo_block_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim, decltype(launchopt::accumulate::slotFor(count)) *__lo_acc0 = nullptr)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int v = g.col_indices[e];
  if (v <= u) return;
  int i = e + 1, j = g.row_offsets[v];
  const int ie = edge_end, je = g.row_offsets[v + 1];
  while (j < je && g.col_indices[j] <= v) ++j;
  unsigned long long c = 0;
  while (i < ie && j < je) {
    int a = g.col_indices[i], b = g.col_indices[j];
    c += a == b;
    i += a <= b;
    j += b <= a;
  }
  if (c) launchopt::accumulate::put<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, count, c);
}
}

// launchopt: 'tc_intersect' coarsened: each block runs the original blocks
// blockIdx, blockIdx + gridDim, ... of the original grid.
__global__ void __lo_coarse_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const dim3 __lo_originalGrid)
{
  // launchopt: the child's atomic updates of one address, combined here and applied once.
  auto __lo_acc0 = launchopt::accumulate::start<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(count);
  for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
    for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
      for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x)
        __lo_block_tc_intersect(g, u, edge_begin, edge_end, count, make_uint3(__lo_bx, __lo_by, __lo_bz), threadIdx,
            blockDim, __lo_originalGrid, &__lo_acc0);
  launchopt::accumulate::flushWarp<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, count);
}

__global__ void tc_vertices(GraphDev g, int first, unsigned long long* count) {
  int u = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= g.num_nodes) return;
  int begin = g.row_offsets[u], end = g.row_offsets[u + 1];
  if (end - begin < 2) return;
  { // launchopt: coarsened launch of 'tc_intersect'
    const dim3 __lo_cgrid1 = (end - begin + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
    __lo_coarse_tc_intersect<<<__lo_coarse1, kChildBlock>>>(g, u, begin, end, count, __lo_cgrid1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&tc_failed_launches, 1u);
}

}  // namespace

int tc_run(const GraphDev& g, unsigned long long* d_count) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(g.num_nodes < kMaxPending ? g.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(tc_failed_launches, &zero, sizeof zero);
  cudaMemsetAsync(d_count, 0, sizeof(unsigned long long));
  for (int first = 0; first < g.num_nodes; first += kMaxPending) {
    int count = g.num_nodes - first < kMaxPending ? g.num_nodes - first : kMaxPending;
    tc_vertices<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(g, first, d_count);
  }
  cudaMemcpyFromSymbol(&failed, tc_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// (the report's serial-pooling says where the lanes of a warp share their
// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
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
// ---- launchopt runtime: launchopt/packing.cuh ----
// launchopt device runtime: serial copies that converged lanes share.
//
// A parent thread that runs a small child itself (thresholding's serial
// copy, launch removal's inline copy, the spawn controller's in-parent run)
// runs every thread of that child one after another. When several lanes of
// a warp reach their serial copies together, each with a child of a
// different size, the warp takes as long as its largest child and most of
// its lanes idle. Here the lanes that arrive together (__activemask) pool
// their children: the child threads are numbered in lane order, and in each
// round every lane runs the next one, finding the lane whose child it
// belongs to and copying that lane's arguments with shuffles. A warp then
// takes as many rounds as its children have threads together, divided by
// its lanes, and consecutive lanes run consecutive threads of one child,
// whose accesses coalesce as the child's own warps' would.
//
// The child's threads are independent (the serial copy requires no
// barrier, shared memory or warp primitive), so any lane may run any of
// them. The lanes synchronise (with memory ordering) before the first round,
// so that a lane sees what the parent thread whose child it runs wrote
// before its launch, and after the last, so that each parent thread goes on
// after its whole child, as it would from the serial loop.
//
// A round costs more than a thread of a serial loop (the owner's search
// and the shuffles of its arguments; only the words of the arguments that
// differ between the lanes are shuffled), so pooling pays where children
// differ in size, and the more the dearer a child thread is: the group
// pools only when the largest child's threads, at the child's estimated
// cost each, cost at least the pooled rounds at that cost plus
// LAUNCHOPT_PACKED_ROUND_COST.
//
// launchopt calls it only for children whose threads loop or are dear
// (lib/Transforms/Common/SerialChildBuilder.cpp): for a child of a few
// instructions a round costs about what the thread does.
//
// runTogether answers false, and the caller runs its own serial loop, for
// children too alike for that, for a lane alone, on a GPU without
// __reduce_or_sync (before sm_80), for arguments that cannot be copied word
// by word or take more than LAUNCHOPT_PACKED_ARGUMENT_BYTES, and where a
// child of the group has more threads than 32-bit counts allow. Define
// LAUNCHOPT_SERIAL_PACKING=0 to keep every serial copy serial.
#ifndef LAUNCHOPT_PACKING_CUH
#define LAUNCHOPT_PACKING_CUH

#include <cstring>
#include <cuda_runtime.h>
#include <type_traits>

#ifndef LAUNCHOPT_SERIAL_PACKING
#define LAUNCHOPT_SERIAL_PACKING 1
#endif
#ifndef LAUNCHOPT_PACKED_ARGUMENT_BYTES
#define LAUNCHOPT_PACKED_ARGUMENT_BYTES 224
#endif
#ifndef LAUNCHOPT_PACKED_ROUND_COST
#define LAUNCHOPT_PACKED_ROUND_COST 48 // instructions a pooled round adds to a child thread's
#endif
#ifndef LAUNCHOPT_PACKED_LOOPING_THREAD
#define LAUNCHOPT_PACKED_LOOPING_THREAD 512 // instructions assumed of a thread that loops
#endif

namespace launchopt {
namespace packing {
namespace {

// The group's threads are counted in 32 bits.
constexpr unsigned long long MaxGroupThreads = 1ull << 31;

__device__ inline unsigned laneIndex() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// A value's 32-bit words, and which of them every lane of `mask` holds
// alike (those need no shuffle: arguments such as the input arrays are
// usually the same in every child).
template <typename T> struct LaneWords {
  static constexpr unsigned Count = (sizeof(T) + 3) / 4;
  unsigned words[Count] = {};
  unsigned long long same = 0;
  __device__ LaneWords(unsigned mask, const T &value) {
    memcpy(words, &value, sizeof(T));
#pragma unroll
    for (unsigned i = 0; i < Count; ++i) {
      int all = 0;
      __match_all_sync(mask, words[i], &all);
      if (all)
        same |= 1ull << i;
    }
  }
};

// The value as the lane `source` holds it; every lane of `mask` calls it.
template <typename T> struct LaneCopy {
  alignas(alignof(T) > 4 ? alignof(T) : 4) unsigned words[LaneWords<T>::Count];
  __device__ LaneCopy(unsigned mask, const LaneWords<T> &mine, unsigned source) {
#pragma unroll
    for (unsigned i = 0; i < LaneWords<T>::Count; ++i)
      words[i] = (mine.same >> i) & 1 ? mine.words[i] : __shfl_sync(mask, mine.words[i], source);
  }
  __device__ const T &get() const { return *reinterpret_cast<const T *>(words); }
};

// What a lane's child is, to the lanes that run its threads.
template <typename Thread> struct Child {
  Thread runThread;
  dim3 grid;
  dim3 block;
};

// The thread `index` of a grid in the order of a serial loop (x fastest,
// threads inside blocks): its block and its thread.
__device__ inline void placeThread(unsigned index, const dim3 grid, const dim3 block, uint3 *blockIdx,
                                   uint3 *threadIdx) {
  if (grid.y == 1 && grid.z == 1 && block.y == 1 && block.z == 1) {
    const unsigned b = index / block.x;
    *blockIdx = make_uint3(b, 0, 0);
    *threadIdx = make_uint3(index - b * block.x, 0, 0);
    return;
  }
  const unsigned blockThreads = block.x * block.y * block.z;
  const unsigned b = index / blockThreads, t = index - b * blockThreads;
  *threadIdx = make_uint3(t % block.x, t / block.x % block.y, t / (block.x * block.y));
  *blockIdx = make_uint3(b % grid.x, b / grid.x % grid.y, b / (grid.x * grid.y));
}

// The threads of a one-dimensional child that do not end at its guard on
// the linear x index: that guard ends a thread and every later one
// (Analysis/LinearExit.h), so the first it ends is found by bisection, over
// the blocks' first threads and then inside the block before (no division).
template <typename Exit>
__device__ unsigned threadsBeforeExit(const dim3 grid, const dim3 block, const Exit &exitAt) {
  const uint3 origin = make_uint3(0, 0, 0);
  unsigned low = 0, high = grid.x;
  while (low < high) {
    const unsigned middle = low + (high - low) / 2;
    if (exitAt(make_uint3(middle, 0, 0), origin, block, grid))
      high = middle;
    else
      low = middle + 1;
  }
  if (low == 0)
    return 0;
  const uint3 last = make_uint3(low - 1, 0, 0);
  unsigned first = 1, end = block.x;
  while (first < end) {
    const unsigned middle = first + (end - first) / 2;
    if (exitAt(last, make_uint3(middle, 0, 0), block, grid))
      end = middle;
    else
      first = middle + 1;
  }
  return (low - 1) * block.x + first;
}

} // namespace

// Runs this lane's child grid (`runThread(blockIdx, threadIdx, blockDim,
// gridDim)` runs one of its threads) together with those of the lanes that
// call it at the same time; false when this lane should run it alone.
// `exitAt` is the child's guard on its linear x index, or nullptr;
// `threadCost` the instructions a thread of the child issues, as launchopt
// estimated them from its body (0: unknown, a child that loops).
template <typename Thread, typename Exit>
__device__ bool runTogether(const dim3 grid, const dim3 block, const Thread &runThread,
                            const Exit &exitAt, unsigned threadCost) {
#if !LAUNCHOPT_SERIAL_PACKING || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800)
  return false;
#else
  if constexpr (!std::is_trivially_copyable<Thread>::value ||
                sizeof(Thread) > LAUNCHOPT_PACKED_ARGUMENT_BYTES) {
    return false;
  } else {
    const unsigned mask = __activemask();
    const unsigned lanes = __popc(mask);
    const unsigned long long cost = threadCost ? threadCost : LAUNCHOPT_PACKED_LOOPING_THREAD;
    // Pooled, the group gains at most `lanes` times.
    if (lanes * cost < cost + LAUNCHOPT_PACKED_ROUND_COST)
      return false;
    const unsigned long long all = static_cast<unsigned long long>(grid.x) * grid.y * grid.z *
                                   block.x * block.y * block.z;
    if (__any_sync(mask, all >= MaxGroupThreads / 32))
      return false;
    unsigned threads = static_cast<unsigned>(all);
    if constexpr (!std::is_same<Exit, decltype(nullptr)>::value) {
      if (grid.y == 1 && grid.z == 1 && block.y == 1 && block.z == 1)
        threads = threadsBeforeExit(grid, block, exitAt);
    }

    // Alone, each lane runs as many threads as its child has, and the group
    // waits for the largest; together, the group takes `rounds` rounds, each
    // dearer than a serial thread by LAUNCHOPT_PACKED_ROUND_COST.
    const unsigned total = __reduce_add_sync(mask, threads);
    const unsigned rounds = (total + lanes - 1) / lanes;
    if (static_cast<unsigned long long>(__reduce_max_sync(mask, threads)) * cost <
        static_cast<unsigned long long>(rounds) * (cost + LAUNCHOPT_PACKED_ROUND_COST))
      return false;

    // The first thread of this lane's child among the group's (the threads
    // of the lanes below it, by a scan over the group in lane order).
    const unsigned lane = laneIndex();
    unsigned first = threads;
#pragma unroll
    for (int distance = 1; distance < 32; distance *= 2) {
      const unsigned below = __fns(mask, lane, -(distance + 1));
      const unsigned value = __shfl_sync(mask, first, below == ~0u ? lane : below);
      if (below != ~0u)
        first += value;
    }
    first -= threads;

    __syncwarp(mask);
    const unsigned owners = __ballot_sync(mask, threads > 0);
    const unsigned rank = __popc(mask & ((1u << lane) - 1));
    const LaneWords<Child<Thread>> mine(mask, Child<Thread>{runThread, grid, block});
    // The lane whose child holds the round's first thread.
    unsigned roundOwner = __ffs(owners) - 1;
    for (unsigned base = 0; base < total; base += lanes) {
      // Each child that starts inside the round (after its first thread)
      // marks where: the owner of a thread is the round's first owner
      // advanced by the marks at or before it.
      const unsigned offset = first - base;
      const unsigned mark = threads > 0 && first > base && offset <= lanes ? 1u << (offset - 1) : 0u;
      const unsigned marks = __reduce_or_sync(mask, mark);
      const unsigned owner = __fns(owners, roundOwner, __popc(marks & ((1u << rank) - 1)) + 1);
      const unsigned ownerFirst = __shfl_sync(mask, first, owner);
      const LaneCopy<Child<Thread>> ownerChild(mask, mine, owner);
      roundOwner = __fns(owners, roundOwner, __popc(marks) + 1);
      const unsigned index = base + rank;
      if (index < total) {
        const Child<Thread> &c = ownerChild.get();
        uint3 b, t;
        placeThread(index - ownerFirst, c.grid, c.block, &b, &t);
        c.runThread(b, t, c.block, c.grid);
      }
    }
    __syncwarp(mask);
    return true;
  }
#endif
}

} // namespace packing
} // namespace launchopt

#endif
// ---- end of launchopt/packing.cuh ----
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

// launchopt: one thread of 'tc_intersect', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_thread_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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

// launchopt: whether the guard of 'tc_intersect' ends this thread and every later one in x:
// (e >= edge_end)
static __device__ bool __lo_thread_exit_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  (void)e;
  return (e >= edge_end);
}

// launchopt: every thread of a 'tc_intersect' grid, one after another (serial version).
static __device__ void __lo_serial_tc_intersect(GraphDev g, int u, int edge_begin, int edge_end, unsigned long long* count, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  if (launchopt::packing::runTogether(__lo_gridDim, __lo_blockDim,
          [=](const uint3 __lo_b, const uint3 __lo_t, const dim3 __lo_bd, const dim3 __lo_gd) {
            __lo_thread_tc_intersect(g, u, edge_begin, edge_end, count, __lo_b, __lo_t, __lo_bd, __lo_gd);
          },
          [=](const uint3 __lo_b, const uint3 __lo_t, const dim3 __lo_bd, const dim3 __lo_gd) {
            return __lo_thread_exit_tc_intersect(g, u, edge_begin, edge_end, count, __lo_b, __lo_t, __lo_bd, __lo_gd);
          }, 0u))
    return;
  // launchopt: the child's atomic updates of one address, combined here and applied once.
  auto __lo_acc0 = launchopt::accumulate::start<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(count);
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_tc_intersect(g, u, edge_begin, edge_end, count, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_tc_intersect(g, u, edge_begin, edge_end, count, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim, &__lo_acc0);
            }
    }
  launchopt::accumulate::flush<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(__lo_acc0, count);
}

__global__ void tc_vertices(GraphDev g, int first, unsigned long long* count) {
  int u = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= g.num_nodes) return;
  int begin = g.row_offsets[u], end = g.row_offsets[u + 1];
  if (end - begin < 2) return;
  { // launchopt: thresholded launch of 'tc_intersect'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      tc_intersect<<<__lo_grid1, __lo_block1>>>(g, u, begin, end, count);
    else
      __lo_serial_tc_intersect(g, u, begin, end, count, __lo_grid1, __lo_block1);
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

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

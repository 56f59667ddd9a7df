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
#pragma once

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

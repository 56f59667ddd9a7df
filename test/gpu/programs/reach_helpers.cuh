// Helpers of reach_helpers.cu, in a header as real programs keep them: they
// read the built-in index variables directly and through cooperative groups.
#pragma once
#include <cooperative_groups.h>

namespace reach {
__device__ inline unsigned globalThread() { return blockIdx.x * blockDim.x + threadIdx.x; }
static __device__ unsigned gridRank() {
  return (unsigned)cooperative_groups::this_grid().thread_rank();
}
namespace detail {
template <typename T> __device__ T salted(T v) {
  return v ^ (T)(blockIdx.x * 2654435761u) ^ (T)(threadIdx.x << 20);
}
} // namespace detail
} // namespace reach

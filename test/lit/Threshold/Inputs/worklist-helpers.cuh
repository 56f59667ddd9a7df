// Worklist-style helpers that read the built-in index variables: inline,
// static, a template in a nested namespace, one declared before it is
// defined, one through cooperative groups.
#pragma once
#include <cooperative_groups.h>
namespace graph {
__device__ inline unsigned lane() { return threadIdx.x % 32; }
static __device__ unsigned globalId() { return blockIdx.x * blockDim.x + threadIdx.x; }
namespace detail {
template <typename T> __device__ T salted(T v) { return v ^ (T)(graph::globalId() << 3) ^ (T)lane(); }
}
__device__ unsigned rank();
__device__ inline unsigned offset(unsigned base) { return base + rank(); }
__device__ unsigned rank() { return cooperative_groups::this_grid().thread_rank(); }
} // namespace graph

// launchopt device runtime: aggregated device-heap allocation (KLAP §II-C).
//
// The threads of a warp (or of a block) that allocate together make one call
// to the device heap for the sum of their sizes and split the result. Each
// piece is preceded by a header pointing at the group's block, whose count of
// live pieces lets `groupFree` return the block to the heap with the last
// piece. A pointer that did not come from here cannot be given to groupFree,
// so launchopt rewrites every device-side allocation and free of a file
// together; the ones it does not aggregate become single-piece groups.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <stddef.h>

// Helpers a given output does not use are not worth a warning each.
#pragma nv_diag_suppress 177

namespace launchopt {
// Internal linkage, as for the aggregation runtime.
namespace {

// The start of a block from the device heap; the pieces follow it.
struct alignas(16) AllocationGroup {
  unsigned pieces; // not yet freed
};

// Right before each piece: 16 bytes keep the piece as aligned as malloc's.
struct alignas(16) PieceHeader {
  AllocationGroup *group;
};

// Larger requests allocate alone, so that the sum over a block (at most 1024
// threads) cannot overflow.
constexpr size_t kLargestGroupedPiece = size_t(1) << 40;

__device__ inline size_t pieceBytes(size_t bytes) {
  return sizeof(PieceHeader) + ((bytes + 15) & ~size_t(15));
}

__device__ inline bool joinsGroup(size_t bytes) {
  return bytes != 0 && bytes <= kLargestGroupedPiece;
}

__device__ inline void *placePiece(AllocationGroup *group, size_t offset) {
  PieceHeader *header =
      reinterpret_cast<PieceHeader *>(reinterpret_cast<unsigned char *>(group + 1) + offset);
  header->group = group;
  return header + 1;
}

// The block for `total` bytes of pieces, its count published before any
// piece can reach groupFree.
__device__ inline AllocationGroup *allocateGroup(size_t total, unsigned pieces) {
  if (pieces == 0)
    return nullptr;
  AllocationGroup *group = static_cast<AllocationGroup *>(malloc(sizeof(AllocationGroup) + total));
  if (group)
    atomicExch(&group->pieces, pieces);
  return group;
}

// A non-zero request in a group of its own; null when the heap is full.
__device__ inline void *pieceAlone(size_t bytes) {
  if (bytes > ~size_t(0) - sizeof(AllocationGroup) - 2 * sizeof(PieceHeader))
    return nullptr;
  AllocationGroup *group = allocateGroup(pieceBytes(bytes), 1);
  return group ? placePiece(group, 0) : nullptr;
}

// Zero bytes: null where the heap's malloc(0) gives null, else an empty
// piece, which groupFree accepts.
__device__ inline void *emptyPiece() {
  void *probe = malloc(0);
  if (!probe)
    return nullptr;
  free(probe);
  return pieceAlone(0);
}

__device__ inline void *mallocAlone(size_t bytes) {
  return bytes == 0 ? emptyPiece() : pieceAlone(bytes);
}

__device__ inline cudaError_t cudaMallocAlone(void **out, size_t bytes) {
  if (bytes == 0) {
    // As the device runtime answers a zero-byte request: its error, or null.
    cudaError_t status = cudaMalloc(out, 0);
    if (status != cudaSuccess || *out == nullptr)
      return status;
    cudaFree(*out);
  }
  *out = pieceAlone(bytes);
  return *out ? cudaSuccess : cudaErrorMemoryAllocation;
}

// The threads of the calling warp that reach the call together: exclusive
// scan of their piece sizes, one malloc by the first of them, then each
// takes its piece. Null for a thread that does not join (zero or huge
// request) or when the group's block did not fit in the heap.
__device__ inline void *warpPiece(size_t bytes) {
  namespace cg = cooperative_groups;
  cg::coalesced_group warp = cg::coalesced_threads();
  bool joins = joinsGroup(bytes);
  unsigned long long mine = joins ? pieceBytes(bytes) : 0;
  unsigned long long offset = cg::exclusive_scan(warp, mine);
  unsigned long long total = warp.shfl(offset + mine, warp.num_threads() - 1);
  unsigned pieces = __popc(warp.ballot(joins));
  unsigned long long base = 0;
  if (warp.thread_rank() == 0)
    base = reinterpret_cast<unsigned long long>(allocateGroup(total, pieces));
  base = warp.shfl(base, 0);
  if (!joins || base == 0)
    return nullptr;
  return placePiece(reinterpret_cast<AllocationGroup *>(base), offset);
}

// The same over the whole block; every thread of the block that has not
// exited must call it. Threads that exited before it must be the block's
// highest-numbered ones, as in an aggregated grid's blocks.
__device__ inline void *blockPiece(size_t bytes) {
  __shared__ unsigned long long warpBase[32];
  __shared__ unsigned warpPieces[32];
  __shared__ AllocationGroup *group;
  // Also keeps the previous call's readers ahead of this call's writers.
  unsigned live = __syncthreads_count(1);
  unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned lane = thread % 32, warp = thread / 32;
  unsigned liveLanes = live - warp * 32 >= 32 ? 32 : live - warp * 32;
  unsigned mask = liveLanes == 32 ? 0xffffffffu : (1u << liveLanes) - 1;
  bool joins = joinsGroup(bytes);
  unsigned long long mine = joins ? pieceBytes(bytes) : 0, inclusive = mine;
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned long long below = __shfl_up_sync(mask, inclusive, d);
    if (lane >= d)
      inclusive += below;
  }
  unsigned joined = __ballot_sync(mask, joins);
  if (lane == liveLanes - 1) {
    warpBase[warp] = inclusive;
    warpPieces[warp] = __popc(joined);
  }
  __syncthreads();
  if (thread == 0) {
    unsigned long long total = 0;
    unsigned pieces = 0;
    for (unsigned w = 0; w < (live + 31) / 32; ++w) {
      unsigned long long sum = warpBase[w];
      warpBase[w] = total;
      total += sum;
      pieces += warpPieces[w];
    }
    group = allocateGroup(total, pieces);
  }
  __syncthreads();
  if (!joins || group == nullptr)
    return nullptr;
  return placePiece(group, warpBase[warp] + inclusive - mine);
}

// What a rewritten `malloc(bytes)` calls: one allocation per warp or block
// (then split), or alone. The original's semantics: null when the heap is
// full; a group whose block does not fit falls back to one call per thread.
__device__ inline void *warpMalloc(size_t bytes) {
  void *piece = warpPiece(bytes);
  return piece ? piece : mallocAlone(bytes);
}

__device__ inline void *blockMalloc(size_t bytes) {
  void *piece = blockPiece(bytes);
  return piece ? piece : mallocAlone(bytes);
}

__device__ inline void *singleMalloc(size_t bytes) { return mallocAlone(bytes); }

// What a rewritten `cudaMalloc(&p, bytes)` calls: cudaSuccess and the
// pointer, or cudaErrorMemoryAllocation and null.
__device__ inline cudaError_t warpCudaMalloc(void **out, size_t bytes) {
  void *piece = warpPiece(bytes);
  if (!piece)
    return cudaMallocAlone(out, bytes);
  *out = piece;
  return cudaSuccess;
}

__device__ inline cudaError_t blockCudaMalloc(void **out, size_t bytes) {
  void *piece = blockPiece(bytes);
  if (!piece)
    return cudaMallocAlone(out, bytes);
  *out = piece;
  return cudaSuccess;
}

__device__ inline cudaError_t singleCudaMalloc(void **out, size_t bytes) {
  return cudaMallocAlone(out, bytes);
}

// Frees a piece; the group's block goes back to the heap with its last piece.
__device__ inline void groupFree(void *pointer) {
  if (!pointer)
    return;
  AllocationGroup *group = (static_cast<PieceHeader *>(pointer) - 1)->group;
  if (atomicSub(&group->pieces, 1u) == 1u)
    free(group);
}

__device__ inline cudaError_t groupCudaFree(void *pointer) {
  groupFree(pointer);
  return cudaSuccess;
}

} // namespace
} // namespace launchopt

#pragma nv_diag_default 177

// launchopt device runtime: thread-granular aggregation (--aggregate=threads).
// Included after aggregation.cuh, whose scopes, pool and records it reuses.
//
// For a child whose threads are independent (no barrier, shared memory or
// warp primitive), the aggregated grid holds the child threads of every
// launch of a scope packed densely, not whole child blocks: a scope's 64-bit
// counter keeps the number of records and the running sum of child threads,
// so each record knows the first packed thread that belongs to it (the
// threads of a warp that reserve together add to it once). A thread
// of the aggregated grid finds its record by a binary search over those
// running sums (thread 0 of each block bounds the block's range of records
// once, the other threads search inside it) and runs as the thread of that
// launch with the same linear index. A grid of many small, uneven children
// thus runs on full blocks, with no block idle past its child's end.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

#ifndef LAUNCHOPT_PACKED_BLOCK
#define LAUNCHOPT_PACKED_BLOCK 256
#endif

#pragma nv_diag_suppress 177

namespace launchopt {
namespace {

// The scope counter of a packed scope: the record count in the high 24 bits,
// the running sum of child threads in the low 40.
constexpr unsigned PackedSumBits = 40;
constexpr unsigned long long PackedSumMask = (1ull << PackedSumBits) - 1;
// A scope takes at most this many records; a parent thread reads the
// counter before it adds to it, so the count passes the capacity by at most
// the threads resident on the GPU at once (fewer than 2^19), never 2^24.
constexpr unsigned PackedMaxRecords = 1u << 23;
// A child of more threads fills the GPU on its own and is launched as
// written. With the scope's sum kept under PackedMaxThreadSum before each
// addition, the sum stays under 2^38 (at most 2^19 resident threads add at
// most 2^16 each past it): it never reaches the count's bits, and the
// aggregated grid stays under 2^30 blocks.
constexpr unsigned long long PackedMaxChildThreads = 1ull << 16;
constexpr unsigned long long PackedMaxThreadSum = 1ull << 37;

// One child grid inside a packed aggregated launch; it takes the place of a
// ChildRecord in the record array that openScope allocates.
struct PackedRecord {
  unsigned long long firstThread; // running sum of the threads of the records before it
  unsigned threads;
  unsigned sharedMemory;
  dim3 grid;
  dim3 block;
  const void *arguments;
};
static_assert(sizeof(PackedRecord) <= sizeof(ChildRecord) &&
                  alignof(PackedRecord) <= alignof(ChildRecord),
              "packed records live in the record array of ChildRecords");

__device__ inline PackedRecord *packedRecords(AggregatedLaunch *launch) {
  return reinterpret_cast<PackedRecord *>(launch->records);
}
__device__ inline const PackedRecord *packedRecords(const AggregatedLaunch *launch) {
  return reinterpret_cast<const PackedRecord *>(launch->records);
}

// Fills record `index` of a packed scope; null when it is past the capacity
// (later records are all past it too: the tail is never launched).
__device__ inline void *writePackedRecord(AggregatedLaunch *launch, unsigned capacity,
                                          unsigned index, unsigned long long firstThread,
                                          unsigned threads, unsigned sharedMemory, dim3 grid,
                                          dim3 block, void *arguments, void **uniformArguments) {
  if (index >= capacity)
    return nullptr;
  if (index == 0 && uniformArguments)
    *uniformArguments = const_cast<void *>(
        static_cast<const volatile AggregatedLaunch *>(launch)->uniformArguments);
  PackedRecord &r = packedRecords(launch)[index];
  r.firstThread = firstThread;
  r.threads = threads;
  r.sharedMemory = sharedMemory;
  r.grid = grid;
  r.block = block;
  r.arguments = arguments;
  return arguments;
}

// reserveRecord's counterpart for packed scopes: the running sum counts
// child threads. Null when the parent must launch directly: the pool or the
// scope is full, the grid is empty or larger than PackedMaxChildThreads.
// The threads of a warp that reserve together in one scope (the coalesced
// group at the call) take consecutive records with one atomic and one pool
// allocation, so a grid scope's counter sees one atomic per warp, not one
// per parent thread; a group whose threads reserve in different scopes
// reserves thread by thread.
__device__ inline void *reservePackedRecord(AggregationScope *scope, dim3 grid, dim3 block,
                                            unsigned sharedMemory, unsigned argumentBytes,
                                            void **uniformArguments = nullptr) {
  namespace cg = cooperative_groups;
  if (uniformArguments)
    *uniformArguments = nullptr;
  if (!scope)
    return nullptr;
  AggregatedLaunch *launch = publishedLaunch(scope);
  if (launch == failedLaunch())
    countRefused(argumentBytes);
  if (launch == nullptr || launch == failedLaunch())
    return nullptr;
  unsigned capacity = min(scope->capacity, PackedMaxRecords);
  unsigned long long threads = (unsigned long long)grid.x * grid.y * grid.z *
                               ((unsigned long long)block.x * block.y * block.z);
  if (threads == 0 || threads > PackedMaxChildThreads)
    return nullptr;
  unsigned long long seen = *reinterpret_cast<volatile unsigned long long *>(&scope->countAndBlocks);
  if ((seen >> PackedSumBits) >= capacity || (seen & PackedSumMask) > PackedMaxThreadSum)
    return nullptr;
  cg::coalesced_group peers = cg::coalesced_threads();
  const unsigned leader = peers.size() - 1;
  const bool leads = peers.thread_rank() == leader;
  // Both shuffles run in every thread of the group (no short circuit).
  const unsigned long long leaderScope =
      peers.shfl(reinterpret_cast<unsigned long long>(scope), leader);
  const unsigned leaderBytes = peers.shfl(argumentBytes, leader);
  const bool together = peers.all(leaderScope == reinterpret_cast<unsigned long long>(scope) &&
                                  leaderBytes == argumentBytes);
  if (!together) {
    void *arguments = poolAllocate(argumentBytes);
    if (!arguments)
      return nullptr;
    unsigned long long old =
        atomicAdd(&scope->countAndBlocks, (1ull << PackedSumBits) | threads);
    return writePackedRecord(launch, capacity, unsigned(old >> PackedSumBits),
                             old & PackedSumMask, unsigned(threads), sharedMemory, grid, block,
                             arguments, uniformArguments);
  }
  // Pool pieces are multiples of 16 bytes, so each thread's stays aligned.
  unsigned long long stride = (argumentBytes + 15) & ~15ull;
  unsigned long long pieces = 0;
  if (leads)
    pieces = reinterpret_cast<unsigned long long>(poolAllocate(stride * peers.size()));
  pieces = peers.shfl(pieces, leader);
  if (!pieces)
    return nullptr;
  void *arguments = reinterpret_cast<unsigned char *>(pieces) + stride * peers.thread_rank();
  // Each sum is at most 32 x PackedMaxChildThreads: 32 bits suffice.
  unsigned through = cg::inclusive_scan(peers, unsigned(threads));
  unsigned long long old = 0;
  if (leads)
    old = atomicAdd(&scope->countAndBlocks,
                    ((unsigned long long)peers.size() << PackedSumBits) | through);
  old = peers.shfl(old, leader);
  return writePackedRecord(launch, capacity, unsigned(old >> PackedSumBits) + peers.thread_rank(),
                           (old & PackedSumMask) + through - threads, unsigned(threads),
                           sharedMemory, grid, block, arguments, uniformArguments);
}

// summarize's counterpart: `blocks` is the number of LAUNCHOPT_PACKED_BLOCK
// blocks that hold every packed thread.
__device__ inline bool summarizePacked(AggregationScope *scope, ScopeSummary *out) {
  unsigned capacity = min(scope->capacity, PackedMaxRecords);
  unsigned count = unsigned(scope->countAndBlocks >> PackedSumBits);
  AggregatedLaunch *launch = publishedLaunch(scope);
  if (count == 0 || launch == nullptr || launch == failedLaunch())
    return false;
  if (count > capacity)
    count = capacity;
  const PackedRecord &last = packedRecords(launch)[count - 1];
  unsigned long long threads = last.firstThread + last.threads;
  launch->count = count;
  launch->blocks = unsigned((threads + LAUNCHOPT_PACKED_BLOCK - 1) / LAUNCHOPT_PACKED_BLOCK);
  out->launch = launch;
  out->count = count;
  out->blocks = launch->blocks;
  out->maxThreads = LAUNCHOPT_PACKED_BLOCK;
  out->maxSharedMemory = 0;
  return true;
}

// The record in [lo, hi] that packed thread `thread` belongs to: the first
// whose range ends after it.
__device__ inline unsigned packedRecordOf(const PackedRecord *records, unsigned lo, unsigned hi,
                                          unsigned long long thread) {
  while (lo < hi) {
    unsigned mid = (lo + hi) / 2;
    if (records[mid].firstThread + records[mid].threads <= thread)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Disaggregation of a packed grid (one-dimensional blocks): false for the
// threads past the last child thread. Every thread of the block calls it
// (thread 0 writes the block's range of records before a barrier).
__device__ inline bool findPackedOriginal(const AggregatedLaunch *launch, OriginalThread *out) {
  __shared__ unsigned blockFirstRecord, blockLastRecord;
  const PackedRecord *records = packedRecords(launch);
  unsigned count = launch->count;
  unsigned long long total = records[count - 1].firstThread + records[count - 1].threads;
  unsigned long long blockStart = (unsigned long long)blockIdx.x * blockDim.x;
  if (threadIdx.x == 0) {
    unsigned long long blockEnd = min(total, blockStart + blockDim.x);
    blockFirstRecord = packedRecordOf(records, 0, count - 1, blockStart);
    blockLastRecord = packedRecordOf(records, blockFirstRecord, count - 1, blockEnd - 1);
  }
  __syncthreads();
  unsigned long long thread = blockStart + threadIdx.x;
  if (thread >= total)
    return false;
  const PackedRecord &r =
      records[packedRecordOf(records, blockFirstRecord, blockLastRecord, thread)];
  unsigned long long local = thread - r.firstThread;
  unsigned perBlock = r.block.x * r.block.y * r.block.z;
  unsigned b = unsigned(local / perBlock), t = unsigned(local % perBlock);
  out->arguments = r.arguments;
  out->uniformArguments = launch->uniformArguments;
  out->gridDim = r.grid;
  out->blockDim = r.block;
  out->blockIdx = make_uint3(b % r.grid.x, (b / r.grid.x) % r.grid.y, b / (r.grid.x * r.grid.y));
  out->threadIdx =
      make_uint3(t % r.block.x, (t / r.block.x) % r.block.y, t / (r.block.x * r.block.y));
  return true;
}

} // namespace
} // namespace launchopt

#pragma nv_diag_default 177

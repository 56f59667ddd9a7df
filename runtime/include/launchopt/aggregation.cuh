// launchopt device runtime: launch aggregation (CDP2).
//
// Parent threads reserve a record for each child grid they would launch; at
// the end of the parent block (warp and block scopes) or of the last block of
// a group of blocks or of the grid (multi-block and grid scopes) one thread
// launches a single aggregated grid for the whole scope. Each block of the
// aggregated grid finds the record it belongs to by a binary search over the
// running sums of the child grid sizes and runs as that record's original
// block. Records live in a pool of device memory that the host resets before
// each top-level parent launch; a scope's record array is allocated when the
// scope opens, so a parent thread never waits for a thread of its own warp
// (which can hang under independent thread scheduling). When the pool or a scope
// is full, the parent thread launches its child directly, as written.
// Arguments that are the same for every launch of a scope are stored once,
// after the scope's records, by the thread that reserves the first record.
// The multi-block and grid scopes of a host-launched parent are file-scope
// arrays; those of an aggregated grid come with it (attachGroupScopes).
#pragma once

#include <cuda_runtime.h>
#include <mutex>
#include <new>

// The most device memory the pool may take: it grows up to this, never past.
#ifndef LAUNCHOPT_POOL_BYTES
#define LAUNCHOPT_POOL_BYTES (256ull << 20)
#endif
// The least it takes once a top-level parent runs (unless the cap is lower):
// what the host cannot foresee (launches of the children's own children, of a
// recursion) fits in it before the pool has seen what a launch takes.
#ifndef LAUNCHOPT_POOL_MIN_BYTES
#define LAUNCHOPT_POOL_MIN_BYTES (1ull << 20)
#endif
// A parent whose launches take nothing from the pool beyond its own sites'
// records (ParentDemand::ownSitesOnly) skips the reset while the records
// of the parents since the last one, by the host's estimate, leave half the
// pool free; the pool then holds the estimates of this many such parents
// (up to LAUNCHOPT_POOL_AMORTIZE_BYTES), so that the reset kernel, some
// microseconds of a small parent, runs once per that many launches. 0 turns
// the skipping off.
#ifndef LAUNCHOPT_POOL_EPOCH_PARENTS
#define LAUNCHOPT_POOL_EPOCH_PARENTS 8
#endif
#ifndef LAUNCHOPT_POOL_AMORTIZE_BYTES
#define LAUNCHOPT_POOL_AMORTIZE_BYTES (16ull << 20)
#endif
// Multi-block granularity: the most aggregated launches of one grid's scope
// at one site (groupSpanFor). 4 was the fastest of 4, 16, 64 and no bound on
// the H200 (bench/results/group-launches: spmv kron20 1.8x and gc kron16
// 1.6x faster than no bound; grids of up to 32 blocks keep 8 a scope).
#ifndef LAUNCHOPT_MAX_GROUP_LAUNCHES
#define LAUNCHOPT_MAX_GROUP_LAUNCHES 4u
#endif
#ifndef LAUNCHOPT_RECORDS_PER_THREAD
#define LAUNCHOPT_RECORDS_PER_THREAD 1u
#endif
// Devices (by ordinal) the host keeps a pool for; a parent on a device past
// them gets none, and its threads launch directly.
#ifndef LAUNCHOPT_POOL_DEVICES
#define LAUNCHOPT_POOL_DEVICES 64
#endif

// Helpers a given output does not use are not worth a warning each.
#pragma nv_diag_suppress 177

namespace launchopt {

// The record pool: one buffer of device memory per device, allocated by the
// host at run time and sized from the work (preparePool below). Alone, a
// translation unit has its own pool (internal linkage). The outputs of a
// program that launchopt transforms as one (several files, -rdc) share one:
// the output it marks LAUNCHOPT_PROGRAM_POOL_DEFINITION defines the pool's
// device variables and host state, the others that use it are marked
// LAUNCHOPT_PROGRAM_POOL and declare them. The host state's types are in
// `program` either way, so that the shared definition has one type. A change
// of that state's layout renames its inline namespace, so that the outputs of
// two launchopt versions linked into one program fail to link rather than
// share state of two layouts.
namespace program {
inline namespace pool_layout_2 {

// What the host keeps of the pool of one device.
struct HostPoolBuffer {
  unsigned char *buffer;
  unsigned long long capacity;
  // Pinned host memory the device writes to (demandOnDevice is its device
  // address): the most bytes the launches between two resets have asked of
  // the pool. Null when it could not be had; the pool then grows by the
  // host's estimates alone.
  unsigned long long *demand;
  unsigned long long *demandOnDevice;
  bool demandTried;
  unsigned long long peak;           // the most the demand word has said
  unsigned long long failedCapacity; // a cudaMalloc of this many bytes failed; 0: none did
  // The device has this buffer (a reset in `resetStream` published it), and
  // the host's estimate of what the parents launched since take of it.
  bool published;
  cudaStream_t resetStream;
  double sinceReset;
};

struct HostPools {
  std::mutex lock;
  HostPoolBuffer devices[LAUNCHOPT_POOL_DEVICES] = {};
  // At exit. The pools are first used after a CUDA call, so they are
  // destroyed before the runtime's own teardown; should it have come first,
  // these calls only return an error.
  ~HostPools() {
    for (int device = 0; device < LAUNCHOPT_POOL_DEVICES; ++device) {
      HostPoolBuffer &p = devices[device];
      if (p.buffer && cudaSetDevice(device) == cudaSuccess)
        cudaFree(p.buffer);
      if (p.demand)
        cudaFreeHost(p.demand);
    }
  }
};

#ifdef LAUNCHOPT_PROGRAM_POOL
#ifdef LAUNCHOPT_PROGRAM_POOL_DEFINITION
__device__ unsigned char *poolBase;
__device__ unsigned long long poolCapacity, poolCursor, poolPeak;
__device__ unsigned long long *poolDemandWord;
HostPools &hostPools() {
  static HostPools pools;
  return pools;
}
#else
extern __device__ unsigned char *poolBase;
extern __device__ unsigned long long poolCapacity, poolCursor, poolPeak;
extern __device__ unsigned long long *poolDemandWord;
HostPools &hostPools();
#endif
#endif
} // namespace pool_layout_2
} // namespace program

// Internal linkage for the rest: each translation unit has its own helpers.
namespace {

// One child grid inside an aggregated launch.
struct ChildRecord {
  unsigned firstBlock; // running sum of the blocks of the records before it
  unsigned blocks;
  unsigned sharedMemory;
  dim3 grid;
  dim3 block;
  const void *arguments;
};

struct AggregationScope;

// What an aggregated grid receives.
struct AggregatedLaunch {
  const void *uniformArguments; // shared by every record; null when there are none
  // The grid's own multi-block or grid scopes, when the child aggregates its
  // launches at that granularity: `groups` per aggregated site (0: none).
  AggregationScope *scopes;
  unsigned groups;
  unsigned count;
  unsigned blocks; // of all records together
  ChildRecord records[1]; // `count` of them, allocated past the struct's end
};

// The state of one aggregation scope (a warp, a block, a group of blocks or
// the grid). Zero-initialised means empty.
struct AggregationScope {
  unsigned long long countAndBlocks; // high 32 bits: records, low 32: blocks (one atomic)
  unsigned maxThreads;
  unsigned maxSharedMemory;
  AggregatedLaunch *launch; // null: not open; `failedLaunch()`: pool exhausted
  unsigned finishedBlocks;  // multi-block and grid scopes
  unsigned capacity;        // records it can hold
  // An ordered scope's argument slots, one per parent thread of the scope,
  // allocated when it opens (openOrderedScope); null otherwise.
  unsigned char *slotArguments;
  unsigned slotBytes;
};

// The pool as the device sees it: its buffer and capacity, published by the
// host before each top-level parent, and the bump allocator's cursor. The
// cursor counts what was asked, refused requests too, so at the next reset
// it is what the launches would have taken; the most of that is `poolPeak`.
#ifdef LAUNCHOPT_PROGRAM_POOL
using program::hostPools;
using program::poolBase;
using program::poolCapacity;
using program::poolCursor;
using program::poolPeak;
using program::poolDemandWord;
#else
__device__ unsigned char *poolBase;
__device__ unsigned long long poolCapacity, poolCursor, poolPeak;
__device__ unsigned long long *poolDemandWord; // the host's demand word, or null
inline program::HostPools &hostPools() {
  static program::HostPools pools;
  return pools;
}
#endif

__device__ inline AggregatedLaunch *failedLaunch() {
  return reinterpret_cast<AggregatedLaunch *>(alignof(AggregatedLaunch));
}

// A refused request tells the host at once, rather than at the next reset,
// which runs after the host has sized the pool for its next top-level launch:
// the host reads the word before that launch. Only the requests whose bytes
// pass a power of two write it (the capacity is one), so that the refused
// requests of a whole grid cross the bus a few times, not once each.
__device__ inline void reportRefusal(unsigned long long before, unsigned long long after) {
  unsigned long long *word = poolDemandWord;
  if (word && (before == 0 || 63 - __clzll(before) != 63 - __clzll(after)))
    *static_cast<volatile unsigned long long *>(word) = after;
}

// Bump allocation; null when the pool is exhausted (never wraps around, so
// nothing in use is ever overwritten). cudaMalloc's buffer is aligned far
// past the 16 bytes each piece keeps.
__device__ inline void *poolAllocate(unsigned long long bytes) {
  bytes = (bytes + 15) & ~15ull;
  unsigned long long offset = atomicAdd(&poolCursor, bytes);
  if (offset + bytes > poolCapacity) {
    reportRefusal(offset, offset + bytes);
    return nullptr;
  }
  return poolBase + offset;
}

// A record's arguments that never reach poolAllocate because the pool
// refused the scope's record array: counted as asked all the same, so that
// the demand the next reset reports holds them too. (The cursor is already
// past the capacity: nothing else is refused because of it.)
__device__ inline void countRefused(unsigned long long bytes) {
  bytes = (bytes + 15) & ~15ull;
  unsigned long long before = atomicAdd(&poolCursor, bytes);
  reportRefusal(before, before + bytes);
}

// What launchopt knows, at the host launch of a top-level parent, of the
// pool memory that the parent's own aggregated sites take: at `threadSites`
// sites each parent thread may record a launch (up to
// LAUNCHOPT_RECORDS_PER_THREAD), whose arguments take `threadArgumentBytes`
// over all those sites; at `blockSites` sites one thread per parent block
// does, `blockArgumentBytes`. What the children's own launches take (nested
// aggregation, a recursion) depends on the data: the pool learns it from the
// launches (poolPeak). `ownSitesOnly` is 1 when launchopt found no
// aggregated site among the parent's descendants: its launches take no more
// than its own sites' records, so its reset may wait (resetPool).
struct ParentDemand {
  unsigned threadSites;
  unsigned long long threadArgumentBytes;
  unsigned blockSites;
  unsigned long long blockArgumentBytes;
  unsigned ownSitesOnly;
};

// The pool as the host hands it to the device before a top-level parent.
struct PoolView {
  unsigned char *base;
  unsigned long long capacity;
  unsigned long long *demand; // the host's demand word, or null
};

// Run by one thread in the parent's stream before the parent (resetPool, or
// --aggregate=host's arming kernel): every earlier grid of that stream, and
// everything it launched, has finished, so the cursor may go back to 0.
__device__ inline void publishPool(const PoolView &pool) {
  unsigned long long asked = poolCursor;
  if (asked > poolPeak) {
    poolPeak = asked;
    if (pool.demand)
      *static_cast<volatile unsigned long long *>(pool.demand) = asked;
  }
  poolBase = pool.base;
  poolCapacity = pool.capacity;
  poolDemandWord = pool.demand;
  poolCursor = 0;
}

__global__ void resetPoolKernel(PoolView pool) { publishPool(pool); }

// The bytes one launch of a top-level parent of `grid` x `block` threads
// asks of the pool at its own sites: a record and the arguments per launch,
// and a record array's header per scope (counted as for warp scopes, the
// most numerous). In floating point: the product of a grid's and a block's
// sizes can pass 64 bits.
inline double firstLevelBytes(dim3 grid, dim3 block, const ParentDemand &d) {
  double blocks = double(grid.x) * grid.y * grid.z;
  double threads = blocks * (double(block.x) * block.y * block.z);
  double scopes = blocks + threads / 32;
  return double(LAUNCHOPT_RECORDS_PER_THREAD) *
             (threads * (double(d.threadSites) * sizeof(ChildRecord) + d.threadArgumentBytes) +
              blocks * (double(d.blockSites) * sizeof(ChildRecord) + d.blockArgumentBytes)) +
         scopes * (d.threadSites + d.blockSites) * (sizeof(AggregatedLaunch) + 16);
}

// The capacity for `bytes`: LAUNCHOPT_POOL_MIN_BYTES doubled until it holds
// them (so the buffer grows geometrically, each size allocated once), never
// past LAUNCHOPT_POOL_BYTES.
inline unsigned long long poolCapacityFor(double bytes) {
  const unsigned long long cap = LAUNCHOPT_POOL_BYTES;
  unsigned long long capacity = LAUNCHOPT_POOL_MIN_BYTES > 4096 ? LAUNCHOPT_POOL_MIN_BYTES : 4096;
  while (capacity < cap && double(capacity) < bytes)
    capacity *= 2;
  return capacity < cap ? capacity : cap;
}

// A larger buffer for the pool of the current device. It is allocated before
// the old one goes, so that a failed allocation leaves the pool as it was
// (and clears the error it set, which is not the program's). The old buffer
// may still be in use: the host prepares a launch while the last one of its
// stream usually still runs, and a launch of another stream may run too; it
// is freed once the whole device is idle. Growth is geometric, so this wait
// comes a few times in a program's life at most.
inline void growPool(program::HostPoolBuffer &p, unsigned long long capacity) {
  if (p.failedCapacity && capacity >= p.failedCapacity)
    return;
  void *bigger = nullptr;
  if (cudaMalloc(&bigger, capacity) != cudaSuccess) {
    cudaGetLastError();
    p.failedCapacity = capacity;
    return;
  }
  if (p.buffer) {
    cudaDeviceSynchronize();
    cudaFree(p.buffer);
  }
  p.buffer = static_cast<unsigned char *>(bigger);
  p.capacity = capacity;
}

// The host word the device reports the pool's demand in, made on first use.
inline void makeDemandWord(program::HostPoolBuffer &p) {
  p.demandTried = true;
  void *word = nullptr;
  if (cudaHostAlloc(&word, sizeof(unsigned long long), cudaHostAllocMapped) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  void *onDevice = nullptr;
  if (cudaHostGetDevicePointer(&onDevice, word, 0) != cudaSuccess) {
    cudaGetLastError();
    cudaFreeHost(word);
    return;
  }
  p.demand = static_cast<unsigned long long *>(word);
  *p.demand = 0;
  p.demandOnDevice = static_cast<unsigned long long *>(onDevice);
}

// Whether `stream` is being captured into a graph (or cannot say). Such a
// stream always gets its reset: the graph may be replayed any number of
// times, and each replay must find the pool as the capture did.
inline bool capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return status != cudaStreamCaptureStatusNone;
}

// Whether the parent about to be launched in `stream` may leave the cursor
// where the parents since the last reset left it: its launches take no more
// than its own estimate, the reset that published the buffer comes before
// it in its stream, and the estimates of those parents and its own fill at
// most half of the buffer (the estimates count a header per warp, more
// than most scopes take). Nothing is overwritten either way: without a
// reset the parent's records follow the others'.
inline bool mayKeepCursor(const program::HostPoolBuffer &p, double ownBytes,
                          const ParentDemand &demand, cudaStream_t stream) {
  return LAUNCHOPT_POOL_EPOCH_PARENTS > 0 && demand.ownSitesOnly && p.published && p.buffer &&
         p.resetStream == stream && p.sinceReset + ownBytes <= 0.5 * double(p.capacity) &&
         !capturing(stream);
}

// The pool for a top-level parent about to be launched on the current
// device: large enough for the parent's own sites and for the most the
// launches so far have asked (as far as the device has reported it: a
// launch's demand is known once the next launch's reset has run), up to
// LAUNCHOPT_POOL_BYTES. It never shrinks. One pool serves the program's top-level
// parents one after another: its cursor goes back to 0 at a reset, so
// parents that aggregate must not run at the same time in different streams.
// With `reset`, says whether this launch in `stream` needs the reset
// (mayKeepCursor); without it, the caller resets in any case.
inline PoolView preparePool(dim3 grid, dim3 block, const ParentDemand &demand,
                            bool *reset = nullptr, cudaStream_t stream = 0) {
  if (reset)
    *reset = true;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= LAUNCHOPT_POOL_DEVICES)
    return PoolView{nullptr, 0, nullptr};
  program::HostPools &pools = hostPools();
  std::lock_guard<std::mutex> guard(pools.lock);
  program::HostPoolBuffer &p = pools.devices[device];
  if (!p.demandTried)
    makeDemandWord(p);
  const double own = firstLevelBytes(grid, block, demand);
  double wanted = own;
  // Room for several such parents between two resets, while that is small.
  if (reset && demand.ownSitesOnly && LAUNCHOPT_POOL_EPOCH_PARENTS > 0) {
    double several = own * LAUNCHOPT_POOL_EPOCH_PARENTS;
    if (several <= double(LAUNCHOPT_POOL_AMORTIZE_BYTES))
      wanted = several;
  }
  if (p.demand) {
    unsigned long long asked = *static_cast<volatile unsigned long long *>(p.demand);
    p.peak = asked > p.peak ? asked : p.peak;
  }
  // A demand past the capacity means requests were refused. Their children
  // ran as plain launches, which asked nothing for their own launches, so
  // the work wants more than it asked: four times as much, so that a deep
  // recursion (qt) needs a run or two to find its pool, not one per level.
  double learned = p.peak > p.capacity ? 4.0 * double(p.peak) : double(p.peak);
  wanted = learned > wanted ? learned : wanted;
  unsigned long long capacity = poolCapacityFor(wanted);
  if (capacity > p.capacity) {
    unsigned char *before = p.buffer;
    growPool(p, capacity);
    if (p.buffer != before)
      p.published = false;
  }
  if (reset && mayKeepCursor(p, own, demand, stream)) {
    *reset = false;
    p.sinceReset += own;
  } else {
    p.published = true;
    p.resetStream = stream;
    // What a parent that may take more than its estimate leaves free is not
    // known, nor when a captured graph runs: the next launch resets.
    p.sinceReset = reset && demand.ownSitesOnly && !capturing(stream) ? own
                                                                      : double(p.capacity) + 1;
  }
  return PoolView{p.buffer, p.capacity, p.demandOnDevice};
}

// Called by the host before each launch of a top-level parent of `grid` x
// `block` threads, in its stream; launches the reset kernel when the parent
// needs it.
inline void resetPool(cudaStream_t stream, dim3 grid, dim3 block, const ParentDemand &demand) {
  bool reset = true;
  PoolView view = preparePool(grid, block, demand, &reset, stream);
  if (reset)
    resetPoolKernel<<<1, 1, 0, stream>>>(view);
}

__device__ inline unsigned linearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ inline unsigned linearBlock() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ inline unsigned blocksPerGrid() { return gridDim.x * gridDim.y * gridDim.z; }

// The blocks of one multi-block scope in a grid of `blocks`: at least
// `least` (the granularity asked for), and more when the grid is so large
// that it would otherwise make more than LAUNCHOPT_MAX_GROUP_LAUNCHES
// aggregated launches: many small aggregated grids ran slower than a few
// large ones, which balance the children's work over the whole device.
__host__ __device__ inline unsigned groupSpanFor(unsigned blocks, unsigned least) {
  const unsigned launches = LAUNCHOPT_MAX_GROUP_LAUNCHES > 0 ? LAUNCHOPT_MAX_GROUP_LAUNCHES : 1;
  unsigned span = blocks / launches + (blocks % launches != 0);
  return span > least ? span : least;
}

// The scopes of a grid of `blocks` at that span.
__host__ __device__ inline unsigned groupCount(unsigned blocks, unsigned least) {
  unsigned span = groupSpanFor(blocks, least);
  return blocks / span + (blocks % span != 0);
}

__device__ inline unsigned groupSpan(unsigned least) { return groupSpanFor(blocksPerGrid(), least); }

// The record array of a scope of `capacity` records, with room for the
// uniform arguments after it; failedLaunch() when the pool cannot hold it.
__device__ inline AggregatedLaunch *allocateRecords(unsigned capacity, unsigned uniformBytes) {
  unsigned long long recordBytes =
      (sizeof(AggregatedLaunch) + sizeof(ChildRecord) * (capacity - 1) + 15) & ~15ull;
  auto *launch = static_cast<AggregatedLaunch *>(poolAllocate(recordBytes + uniformBytes));
  if (!launch)
    return failedLaunch();
  launch->uniformArguments =
      uniformBytes ? reinterpret_cast<unsigned char *>(launch) + recordBytes : nullptr;
  launch->scopes = nullptr;
  launch->groups = 0;
  return launch;
}

__device__ inline unsigned scopeCapacity(unsigned long long threads) {
  unsigned long long capacity = threads * LAUNCHOPT_RECORDS_PER_THREAD;
  if (capacity == 0)
    return 1;
  return capacity > 0xffffffffull ? 0xffffffffu : unsigned(capacity);
}

// Opens a warp or block scope of `threads` parent threads: its one opener
// allocates the record array before the barrier that precedes the body, so
// no parent thread waits for another to publish it. (Waiting for the thread
// that reserved the first record hung when that thread was in the waiter's
// own warp.)
__device__ inline void openScope(AggregationScope *scope, unsigned long long threads,
                                 unsigned uniformBytes) {
  scope->capacity = scopeCapacity(threads);
  scope->launch = allocateRecords(scope->capacity, uniformBytes);
}

// Marks a group scope whose record array is being allocated: neither null
// nor failedLaunch().
__device__ inline AggregatedLaunch *claimedLaunch() {
  return reinterpret_cast<AggregatedLaunch *>(2 * alignof(AggregatedLaunch));
}

// A scope's capacity, read past the L1 cache: in a group scope only the block
// that claimed the scope writes it, before it publishes the record array.
__device__ inline unsigned publishedCapacity(const AggregationScope *scope) {
  return *static_cast<const volatile unsigned *>(&scope->capacity);
}

// Opens the scope of a group of blocks (multi-block and grid): one thread
// per block calls it before the block's barrier, and the first to arrive
// allocates the record array. The others go on at once: a block that finds
// the scope claimed only reads it, so that of a grid's thousands of blocks
// one stores to the scope and few try the atomic. (Every block storing and
// trying the atomic on one word hung host-launched grids now and then:
// test/gpu/results/host-scope-open-h200.log, group-scope-open-h200.log.)
__device__ inline void openGroupScope(AggregationScope *scope, unsigned long long threads,
                                      unsigned uniformBytes) {
  auto *slot = reinterpret_cast<unsigned long long *>(&scope->launch);
  if (*reinterpret_cast<volatile unsigned long long *>(slot) != 0)
    return;
  auto claimed = reinterpret_cast<unsigned long long>(claimedLaunch());
  if (atomicCAS(slot, 0ull, claimed) != 0)
    return;
  scope->capacity = scopeCapacity(threads);
  AggregatedLaunch *launch = allocateRecords(scope->capacity, uniformBytes);
  __threadfence(); // the capacity and the array's header before the pointer to it
  atomicExch(slot, reinterpret_cast<unsigned long long>(launch));
}

// The scope's record array, read past the L1 cache, where another block of
// a group may have left an older value. A parent thread of a group scope
// may find the array still being allocated by another block's opener; it
// waits for that opener, which is in another block (so never in the
// waiter's warp) and waits for nothing itself. A warp or block scope's
// array was published before the barrier: the first read returns it.
// (Built with `-Xcicc -O1`, a plain loop here left grids of block scopes
// unfinished on the H100: test/random/results/spin-wait-O1-h100.md.)
__device__ inline AggregatedLaunch *publishedLaunch(AggregationScope *scope) {
  auto *slot = reinterpret_cast<volatile unsigned long long *>(&scope->launch);
  const auto claimed = reinterpret_cast<unsigned long long>(claimedLaunch());
  unsigned long long launch = *slot;
  if (launch != claimed)
    return reinterpret_cast<AggregatedLaunch *>(launch);
  while ((launch = *slot) == claimed)
    ;
  return reinterpret_cast<AggregatedLaunch *>(launch);
}

// Writes the record of a child grid whose arguments go to `arguments`: the
// common end of reserveRecord and reserveOrderedRecord.
__device__ inline void *fillRecord(AggregationScope *scope, AggregatedLaunch *launch, dim3 grid,
                                   dim3 block, unsigned sharedMemory, void *arguments,
                                   void **uniformArguments) {
  unsigned capacity = publishedCapacity(scope);
  unsigned blocks = grid.x * grid.y * grid.z;
  unsigned threads = block.x * block.y * block.z;
  // paper Fig. 7: one 64-bit atomic gives the record index and the running
  // sum of blocks before it, so records are ordered by their first block.
  unsigned long long old = atomicAdd(&scope->countAndBlocks, (1ull << 32) | blocks);
  unsigned index = unsigned(old >> 32);
  if (index >= capacity)
    return nullptr; // later records are all past the capacity too: the tail is never launched
  if (index == 0 && uniformArguments)
    *uniformArguments = const_cast<void *>(
        static_cast<const volatile AggregatedLaunch *>(launch)->uniformArguments);
  atomicMax(&scope->maxThreads, threads);
  atomicMax(&scope->maxSharedMemory, sharedMemory);
  ChildRecord &r = launch->records[index];
  r.firstBlock = unsigned(old);
  r.blocks = blocks;
  r.sharedMemory = sharedMemory;
  r.grid = grid;
  r.block = block;
  r.arguments = arguments;
  return arguments;
}

// Reserves a record in an open scope for a child grid of `grid` x `block`;
// returns where its arguments go, or null when the parent must launch
// directly. With `uniformArguments`, the scope also holds the arguments
// shared by all its records: `*uniformArguments` is where they go for the
// caller that got the first record, and null for every other caller.
__device__ inline void *reserveRecord(AggregationScope *scope, dim3 grid, dim3 block,
                                      unsigned sharedMemory, unsigned argumentBytes,
                                      void **uniformArguments = nullptr) {
  if (uniformArguments)
    *uniformArguments = nullptr;
  if (!scope)
    return nullptr;
  AggregatedLaunch *launch = publishedLaunch(scope);
  if (launch == failedLaunch())
    countRefused(argumentBytes);
  if (launch == nullptr || launch == failedLaunch())
    return nullptr;
  unsigned blocks = grid.x * grid.y * grid.z;
  unsigned threads = block.x * block.y * block.z;
  if (blocks == 0 || threads == 0)
    return nullptr;
  void *arguments = poolAllocate(argumentBytes);
  if (!arguments)
    return nullptr;
  return fillRecord(scope, launch, grid, block, sharedMemory, arguments, uniformArguments);
}

// Opens a warp or block scope whose launches keep their order with the
// parent thread's other launches into the block's NULL stream (an ordered
// scope): besides the record array, one argument slot of `argumentBytes`
// per parent thread, so that a record can only be refused when the scope
// could not be opened. With joinOrderedScopes, that happens to all ordered
// scopes of a warp or block together.
__device__ inline void openOrderedScope(AggregationScope *scope, unsigned long long threads,
                                        unsigned uniformBytes, unsigned argumentBytes) {
  openScope(scope, threads, uniformBytes);
  if (scope->launch == failedLaunch())
    return;
  scope->slotBytes = (argumentBytes + 15u) & ~15u;
  scope->slotArguments = static_cast<unsigned char *>(
      poolAllocate((unsigned long long)scope->capacity * scope->slotBytes));
  if (!scope->slotArguments)
    scope->launch = failedLaunch();
}

// Called by the opener of ordered scopes after opening them all: when one
// could not be opened, none is, so every parent thread of the scope
// launches all its ordered children directly, in order, or records them all.
__device__ inline void joinOrderedScopes(AggregationScope *const *scopes, unsigned count) {
  bool failed = false;
  for (unsigned i = 0; i < count; ++i)
    failed = failed || scopes[i]->launch == failedLaunch();
  if (failed)
    for (unsigned i = 0; i < count; ++i)
      scopes[i]->launch = failedLaunch();
}

// reserveRecord for an ordered scope: the arguments go into slot `slot` (the
// parent thread's index in the scope), so the record is refused only when
// the scope is not open.
__device__ inline void *reserveOrderedRecord(AggregationScope *scope, dim3 grid, dim3 block,
                                             unsigned sharedMemory, unsigned slot,
                                             void **uniformArguments = nullptr) {
  if (uniformArguments)
    *uniformArguments = nullptr;
  if (!scope)
    return nullptr;
  AggregatedLaunch *launch = publishedLaunch(scope);
  if (launch == nullptr || launch == failedLaunch() || !scope->slotArguments ||
      slot >= scope->capacity)
    return nullptr;
  if (grid.x * grid.y * grid.z == 0 || block.x * block.y * block.z == 0)
    return nullptr;
  return fillRecord(scope, launch, grid, block, sharedMemory,
                    scope->slotArguments + (unsigned long long)slot * scope->slotBytes,
                    uniformArguments);
}

// The records of a finished scope, ready to launch: the count of usable
// records (capacity and pool failures cut the tail) and the total of blocks.
struct ScopeSummary {
  AggregatedLaunch *launch;
  unsigned count;
  unsigned blocks;
  unsigned maxThreads;
  unsigned maxSharedMemory;
};

__device__ inline bool summarize(AggregationScope *scope, ScopeSummary *out) {
  AggregatedLaunch *launch = publishedLaunch(scope);
  unsigned capacity = publishedCapacity(scope);
  unsigned long long packed = scope->countAndBlocks;
  unsigned count = unsigned(packed >> 32);
  if (count == 0 || launch == nullptr || launch == failedLaunch())
    return false;
  if (count > capacity)
    count = capacity;
  const ChildRecord &last = launch->records[count - 1];
  launch->count = count;
  launch->blocks = last.firstBlock + last.blocks;
  out->launch = launch;
  out->count = count;
  out->blocks = launch->blocks;
  out->maxThreads = scope->maxThreads;
  out->maxSharedMemory = scope->maxSharedMemory;
  return true;
}

__device__ inline void clearScope(AggregationScope *scope) {
  scope->countAndBlocks = 0;
  scope->maxThreads = 0;
  scope->maxSharedMemory = 0;
  scope->launch = nullptr;
  scope->finishedBlocks = 0;
  scope->capacity = 0;
  scope->slotArguments = nullptr;
  scope->slotBytes = 0;
}

// Gives an aggregated grid about to be launched its own group scopes, `sites`
// x `groups` of them, cleared: grids of one kernel that run at the same time
// (a recursive kernel's levels, or the children of several parents) never
// share a scope. Called by the launching thread before the launch, which
// orders these writes before the grid. Without pool memory the grid gets
// none, and its parent threads launch directly.
__device__ inline void attachGroupScopes(AggregatedLaunch *launch, unsigned sites,
                                         unsigned groups) {
  unsigned long long count = (unsigned long long)sites * groups;
  auto *scopes = static_cast<AggregationScope *>(poolAllocate(sizeof(AggregationScope) * count));
  if (!scopes)
    return;
  for (unsigned long long i = 0; i < count; ++i)
    clearScope(&scopes[i]);
  launch->scopes = scopes;
  launch->groups = groups;
}

// The scope of group `group` for aggregated site `site` of an aggregated
// grid, or null when it has none.
__device__ inline AggregationScope *groupScope(const AggregatedLaunch *launch, unsigned site,
                                               unsigned group) {
  return group < launch->groups ? &launch->scopes[site * launch->groups + group] : nullptr;
}

// For multi-block and grid scopes: called by one thread per block after the
// block's records are written; true for the last block of the scope, which
// then launches and clears it.
__device__ inline bool lastBlockOfScope(AggregationScope *scope, unsigned blocksInScope) {
  __threadfence();
  bool last = atomicAdd(&scope->finishedBlocks, 1u) + 1 == blocksInScope;
  if (last)
    __threadfence();
  return last;
}

// The original identity of a thread of an aggregated grid.
struct OriginalThread {
  const void *arguments;
  const void *uniformArguments;
  uint3 blockIdx;
  uint3 threadIdx;
  dim3 blockDim;
  dim3 gridDim;
};

// Disaggregation: false for threads beyond their record's block size.
__device__ inline bool findOriginal(const AggregatedLaunch *launch, OriginalThread *out) {
  unsigned block = blockIdx.x;
  unsigned lo = 0, hi = launch->count - 1;
  // First guess: the record `block` falls in if every child grid had the
  // same size, which they often have (a recursive kernel's fixed fan-out);
  // each step of the search is a dependent load, so a hit saves all of them.
  unsigned guess = unsigned((unsigned long long)block * launch->count / launch->blocks);
  const ChildRecord &g = launch->records[guess];
  if (block < g.firstBlock)
    hi = guess - 1; // guess > 0: record 0 starts at block 0
  else if (block >= g.firstBlock + g.blocks)
    lo = guess + 1;
  else
    lo = hi = guess;
  while (lo < hi) { // first record whose range ends after `block`
    unsigned mid = (lo + hi) / 2;
    const ChildRecord &r = launch->records[mid];
    if (r.firstBlock + r.blocks <= block)
      lo = mid + 1;
    else
      hi = mid;
  }
  const ChildRecord &r = launch->records[lo];
  unsigned threads = r.block.x * r.block.y * r.block.z;
  if (threadIdx.x >= threads)
    return false;
  unsigned b = block - r.firstBlock, t = threadIdx.x;
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

// launchopt runtime: aggregated child grids launched by the host
// (--aggregate=host, --aggregate=threads:host). Included after
// aggregation.cuh (and thread_aggregation.cuh for packed threads), whose
// scopes, pool and records it reuses.
//
// A parent launched from the host records its children's launches in one
// grid scope, as at grid granularity, but no parent block launches them: the
// host launches the aggregated grid into the parent's stream right after the
// parent, so it starts when the parent and all its work are done, and the
// output needs no device-side launch. The host does not know how many
// records the parent wrote. By default it launches a grid as large as the
// device holds at once (occupancy x SMs), whose blocks read the count from
// the scope and stride over the child blocks (or packed child threads);
// with LAUNCHOPT_HOST_COUNT_COPY the host copies the count back first (one
// stream synchronization) and launches exactly that many blocks.
// Before each parent launch the host's arming kernel publishes and resets the
// pool (preparePool and publishPool in aggregation.cuh) and opens the
// scopes, sized for the parent grid the host is about to launch, so the
// parent's blocks start recording at once: none of them claims or waits
// for the record array. (When the first thread of every parent block opened
// the scope, struct_segments with an 8 KiB pool hung in 15 of 95 runs on the
// H200, no kernel resident; opened here, none of 130 did:
// test/gpu/results/host-scope-open-h200.log.) The parent's first block
// checks that it was armed, so a host launch launchopt could not see
// (another file, a function pointer) stops with a message instead of
// dropping the children.
#pragma once

#include <cstdio>
#include <mutex>

#ifndef LAUNCHOPT_HOST_COUNT_COPY
#define LAUNCHOPT_HOST_COUNT_COPY 0
#endif
// Blocks per SM of the persistent grid; 0: as many as the occupancy allows.
#ifndef LAUNCHOPT_HOST_BLOCKS_PER_SM
#define LAUNCHOPT_HOST_BLOCKS_PER_SM 0
#endif

#pragma nv_diag_suppress 177

namespace launchopt {
namespace {

// --aggregate=host-or-device: the host aggregates a parent grid of at least
// this many threads (arms its scopes, launches a copy of the parent that
// records into them, then the aggregated grids); a smaller grid is the
// parent as written, which aggregates its children above the threshold in
// multi-block scopes and launches their grids from the device. The arming
// kernel and the host's aggregated grid cost every parent grid two launches,
// which small grids repeated thousands of times do not repay (bfs and sssp
// on meshes: grids of a few hundred threads).
#ifndef LAUNCHOPT_HOST_MIN_PARENT_THREADS
#define LAUNCHOPT_HOST_MIN_PARENT_THREADS 16384
#endif

// The grid scope of one aggregated site of a host-launched parent.
struct HostAggregation {
  AggregationScope scope;
  unsigned armed; // set by the arming kernel, taken by the parent's first block
};

// Run by the arming kernel before each parent launch, in its stream, after
// publishPool: every earlier grid of the stream, the last aggregated grid
// included, is done. `launchers`: the parent threads that may record (one
// per block, or all of them); `uniformBytes`: the size of the arguments all
// records share.
__device__ inline void armHostAggregation(HostAggregation *h, unsigned long long launchers,
                                          unsigned uniformBytes) {
  clearScope(&h->scope);
  openScope(&h->scope, launchers, uniformBytes);
  h->armed = 1;
}

// The parent threads of a `grid` x `block` launch that may record.
__device__ inline unsigned long long hostLaunchers(dim3 grid, dim3 block, bool onePerBlock) {
  unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
  return onePerBlock ? blocks : blocks * (block.x * block.y * block.z);
}

// Host side, --aggregate=host-or-device: whether the host aggregates a
// parent grid of `grid` x `block`.
inline bool hostAggregates(dim3 grid, dim3 block) {
  double threads = double(grid.x) * grid.y * grid.z * (double(block.x) * block.y * block.z);
  return threads >= double(LAUNCHOPT_HOST_MIN_PARENT_THREADS);
}

// Called by thread 0 of the parent's block 0.
__device__ inline void expectHostLaunch(HostAggregation *h, const char *parent) {
  if (atomicExch(&h->armed, 0u) == 0) {
    printf("launchopt: '%s' was launched where launchopt did not add the host launch of its "
           "aggregated children (another file, a function pointer, cudaLaunchKernel); "
           "transform that launch too, or use --aggregate=host-or-device (whose parent as "
           "written aggregates its children on the device) or --aggregate=grid\n",
           parent);
    __trap();
  }
}

// What an aggregated grid launched by the host reads of its scope: the
// usable records and how many units (child blocks, or blocks of packed
// threads) they hold.
struct HostRecords {
  const AggregatedLaunch *launch;
  unsigned count;
  unsigned long long total; // child blocks, or packed child threads
  unsigned long long units;
};

// Whole child blocks: false when the parent recorded nothing.
__device__ inline bool hostRecords(const HostAggregation *h, HostRecords *out) {
  const AggregationScope &s = h->scope;
  unsigned count = min(unsigned(s.countAndBlocks >> 32), s.capacity);
  if (count == 0 || s.launch == nullptr || s.launch == failedLaunch())
    return false;
  const ChildRecord &last = s.launch->records[count - 1];
  out->launch = s.launch;
  out->count = count;
  out->total = (unsigned long long)last.firstBlock + last.blocks;
  out->units = out->total;
  return true;
}

// Disaggregation of child block `block` for this thread: false for threads
// beyond the record's block size (they skip the body; a child with barriers
// has one block size at every site, the aggregated grid's).
__device__ inline bool findHostOriginal(const HostRecords &h, unsigned block,
                                        OriginalThread *out) {
  const ChildRecord *records = h.launch->records;
  unsigned lo = 0, hi = h.count - 1;
  while (lo < hi) { // the first record whose range ends after `block`
    unsigned mid = (lo + hi) / 2;
    if (records[mid].firstBlock + records[mid].blocks <= block)
      lo = mid + 1;
    else
      hi = mid;
  }
  const ChildRecord &r = records[lo];
  unsigned threads = r.block.x * r.block.y * r.block.z;
  if (threadIdx.x >= threads)
    return false;
  unsigned b = block - r.firstBlock, t = threadIdx.x;
  out->arguments = r.arguments;
  out->uniformArguments = h.launch->uniformArguments;
  out->gridDim = r.grid;
  out->blockDim = r.block;
  out->blockIdx = make_uint3(b % r.grid.x, (b / r.grid.x) % r.grid.y, b / (r.grid.x * r.grid.y));
  out->threadIdx =
      make_uint3(t % r.block.x, (t / r.block.x) % r.block.y, t / (r.block.x * r.block.y));
  return true;
}

#ifdef LAUNCHOPT_PACKED_BLOCK
// Packed child threads (thread_aggregation.cuh): false when the parent
// recorded nothing.
__device__ inline bool hostPackedRecords(const HostAggregation *h, HostRecords *out) {
  const AggregationScope &s = h->scope;
  unsigned count = min(unsigned(s.countAndBlocks >> PackedSumBits), min(s.capacity, PackedMaxRecords));
  if (count == 0 || s.launch == nullptr || s.launch == failedLaunch())
    return false;
  const PackedRecord &last = packedRecords(s.launch)[count - 1];
  out->launch = s.launch;
  out->count = count;
  out->total = last.firstThread + last.threads;
  out->units = (out->total + blockDim.x - 1) / blockDim.x;
  return true;
}

// The packed thread of unit `unit` this thread runs as; false past the last
// one. Every thread of the block calls it (thread 0 bounds the block's
// records for the others, between two barriers).
__device__ inline bool findHostPackedOriginal(const HostRecords &h, unsigned long long unit,
                                              OriginalThread *out) {
  __shared__ unsigned firstRecord, lastRecord;
  const PackedRecord *records = packedRecords(h.launch);
  unsigned long long start = unit * blockDim.x;
  __syncthreads(); // the previous unit's threads have read the bounds
  if (threadIdx.x == 0) {
    unsigned long long end = min(h.total, start + blockDim.x);
    firstRecord = packedRecordOf(records, 0, h.count - 1, start);
    lastRecord = packedRecordOf(records, firstRecord, h.count - 1, end - 1);
  }
  __syncthreads();
  unsigned long long thread = start + threadIdx.x;
  if (thread >= h.total)
    return false;
  const PackedRecord &r = records[packedRecordOf(records, firstRecord, lastRecord, thread)];
  unsigned long long local = thread - r.firstThread;
  unsigned perBlock = r.block.x * r.block.y * r.block.z;
  unsigned b = unsigned(local / perBlock), t = unsigned(local % perBlock);
  out->arguments = r.arguments;
  out->uniformArguments = h.launch->uniformArguments;
  out->gridDim = r.grid;
  out->blockDim = r.block;
  out->blockIdx = make_uint3(b % r.grid.x, (b / r.grid.x) % r.grid.y, b / (r.grid.x * r.grid.y));
  out->threadIdx =
      make_uint3(t % r.block.x, (t / r.block.x) % r.block.y, t / (r.block.x * r.block.y));
  return true;
}
#endif

// The persistent grid's size for a kernel: the blocks the device holds at
// once. Remembered per kernel, device and shape (the occupancy query costs
// more than the launch).
inline unsigned persistentBlocks(const void *kernel, unsigned blockThreads, size_t sharedMemory) {
  struct Entry {
    const void *kernel;
    int device;
    unsigned blockThreads;
    size_t sharedMemory;
    unsigned blocks;
  };
  static std::mutex lock;
  static Entry known[32];
  static unsigned used = 0;
  int device = 0;
  cudaGetDevice(&device);
  std::lock_guard<std::mutex> guard(lock);
  for (unsigned i = 0; i < used; ++i)
    if (known[i].kernel == kernel && known[i].device == device &&
        known[i].blockThreads == blockThreads && known[i].sharedMemory == sharedMemory)
      return known[i].blocks;
  int sms = 1, perSM = LAUNCHOPT_HOST_BLOCKS_PER_SM;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (perSM <= 0 && (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, kernel, int(blockThreads),
                                                                   sharedMemory) != cudaSuccess ||
                     perSM <= 0))
    perSM = 1;
  unsigned blocks = unsigned(sms) * unsigned(perSM);
  if (used < sizeof(known) / sizeof(known[0]))
    known[used++] = {kernel, device, blockThreads, sharedMemory, blocks};
  return blocks;
}

// Launches the aggregated grid of one site after its parent, in the parent's
// stream. `symbol` is the site's HostAggregation (a __device__ variable);
// `packed`: its records count child threads.
template <typename Kernel>
inline void launchHostAggregated(Kernel kernel, const HostAggregation &symbol,
                                 unsigned blockThreads, size_t sharedMemory, bool packed,
                                 cudaStream_t stream) {
  void *scope = nullptr;
  if (cudaGetSymbolAddress(&scope, symbol) != cudaSuccess)
    return;
  auto *h = static_cast<HostAggregation *>(scope);
  unsigned long long blocks;
#if LAUNCHOPT_HOST_COUNT_COPY
  // The counter holds the launches past the scope's capacity too: an
  // estimate from above, which the grid's blocks cut to the stored records.
  unsigned long long counter = 0;
  cudaMemcpyAsync(&counter, &h->scope.countAndBlocks, sizeof(counter), cudaMemcpyDeviceToHost,
                  stream);
  cudaStreamSynchronize(stream);
  if (counter == 0)
    return;
  blocks = packed ? ((counter & ((1ull << 40) - 1)) + blockThreads - 1) / blockThreads
                  : (counter & 0xffffffffull);
  if (blocks == 0)
    return;
  if (blocks > 0x7fffffffull)
    blocks = 0x7fffffffull;
#else
  blocks = persistentBlocks(reinterpret_cast<const void *>(kernel), blockThreads, sharedMemory);
#endif
  kernel<<<unsigned(blocks), blockThreads, sharedMemory, stream>>>(h);
}

} // namespace
} // namespace launchopt

#pragma nv_diag_default 177

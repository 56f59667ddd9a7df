// launchopt: the configuration check of removed launches.
// ---- launchopt runtime: launchopt/removal_guard.cuh ----
// launchopt device runtime: whether a removed launch would have started.
//
// A launch whose configuration the device refuses fails, and its child never
// runs; the code that replaces a removed launch asks this first, so that it
// runs the child exactly when the launch would have. Self-contained: outputs
// of T4 use nothing else of the runtime.

#include <cuda_runtime.h>

namespace launchopt {
namespace removal {

// Whether a launch with this configuration would start: an empty grid, or a
// grid or block over the limits of compute capability 9.0 (a wrapped count
// gives one), makes it fail, and then its child never runs.
static __device__ inline bool launchable(const dim3 &grid, const dim3 &block) {
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  return grid.x >= 1 && grid.x <= 0x7fffffffu && grid.y >= 1 && grid.y <= 65535u && grid.z >= 1 &&
         grid.z <= 65535u && block.x >= 1 && block.x <= 1024u && block.y >= 1 &&
         block.y <= 1024u && block.z >= 1 && block.z <= 64u && threads <= 1024u;
}

} // namespace removal
} // namespace launchopt
// ---- end of launchopt/removal_guard.cuh ----
// launchopt: removed launches (T1/T2) are recorded in a queue of each persistent parent grid:
// a ring the host allocates (LAUNCHOPT_PERSISTENT_RING_BYTES), else LAUNCHOPT_PERSISTENT_QUEUE launches;
// beyond them the launching thread runs the child itself.
#ifndef LAUNCHOPT_PERSISTENT_QUEUE
#define LAUNCHOPT_PERSISTENT_QUEUE 65536u
#endif
// ---- launchopt runtime: launchopt/persistent.cuh ----
// launchopt device runtime: launch removal over a persistent parent grid
// (T1, CB* -> PB*, and T2, CK* -> PB*).
//
// The parent kernel runs as a grid no larger than the device holds at once
// (sized from the occupancy API), launched cooperatively so that a grid
// barrier cannot deadlock. Its blocks first run the original parent blocks
// in turn, their threads recording the child launches in a global queue of
// the parent; after a grid barrier the blocks take the recorded work
// dynamically: a whole child grid at a time (T2), one child block at a
// time (T1), or, for the megakernel that auto picks, a block's worth of
// child threads at a time, packed densely over all recorded grids (a child
// of at most LAUNCHOPT_PERSISTENT_INLINE_THREADS threads is run by the
// launching thread at once instead: recording it costs more). A child of
// independent threads (no barriers, shared memory or warp primitives) is run
// by a parent block as a loop over its threads, whatever its block size, and
// a launch of it that finds the queue full is run by its thread at once. A
// child whose threads work together has the grid's block shape and runs as
// one of its blocks, thread t as child thread t (WholeBlocks); a launch of
// it that finds the queue full is kept by the block in the device heap and
// run by it after its current unit of work (recordBlocks, drainOverflow).
//
// A child that launches itself (recursion) records its launches in the same
// queue while the grid runs it: the recorded work then runs in rounds, one
// grid barrier apart, until a round records nothing. The queue is a ring
// whose live records are those of the running round and the ones recorded
// since: as many as the ring the host allocates before the grid's first
// launch holds (LAUNCHOPT_PERSISTENT_RING_BYTES), or else
// LAUNCHOPT_PERSISTENT_QUEUE of them at a time. A kernel that
// launches itself is its own parent: the host's launch of it starts the
// grid.

#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <initializer_list>
#include <tuple>
#include <type_traits>
#include <utility>

#ifndef LAUNCHOPT_PERSISTENT_QUEUE
#define LAUNCHOPT_PERSISTENT_QUEUE 65536u
#endif
// The ring of records the host allocates for a persistent parent grid before
// its first launch, in place of the LAUNCHOPT_PERSISTENT_QUEUE records the
// module holds: at most this many bytes, and at most a sixteenth of the
// device memory then free (0: the module's records only). A recursion keeps
// a round's records and those recorded since; beyond them its launches run
// depth first in the recording thread or block, which on qt's deepest input
// (1M points, depth 20) took 2x as long as a ring of 1M records.
#ifndef LAUNCHOPT_PERSISTENT_RING_BYTES
#define LAUNCHOPT_PERSISTENT_RING_BYTES (512ull << 20)
#endif
// The megakernel's device-side choice between T1 and T2 (paper Fig. 7b):
// what taking one unit of work costs (an atomic and two block barriers), in
// steps of a parent thread running child threads. Not measured yet: a guess.
#ifndef LAUNCHOPT_T1_TAKE_COST
#define LAUNCHOPT_T1_TAKE_COST 4u
#endif

// The persistent grid of a recursive child has at least this many blocks per
// SM (within what the device holds): the recursion's rounds are its work.
// On the H200, 8 ran quicksort_stream 1.9x and recursive_halving 2.9x faster
// than 1 (test/gpu/results/recursive-persistent-h200.log).
#ifndef LAUNCHOPT_PERSISTENT_RECURSIVE_BLOCKS_PER_SM
#define LAUNCHOPT_PERSISTENT_RECURSIVE_BLOCKS_PER_SM 8
#endif

// The stack of a device thread, in bytes, where the persistent grid runs a
// child that launches itself (its nested serial runs take about 64 bytes a
// level).
#ifndef LAUNCHOPT_PERSISTENT_STACK
#define LAUNCHOPT_PERSISTENT_STACK 4096
#endif

// The device heap, in bytes, where the persistent grid runs a child whose
// threads work together: its blocks keep there the launches that find the
// queue full (the device's default is 8 MiB).
#ifndef LAUNCHOPT_PERSISTENT_HEAP
#define LAUNCHOPT_PERSISTENT_HEAP (64u << 20)
#endif

// The megakernel's children of at most this many threads (grid x block)
// are run by the launching thread at once rather than recorded.
#ifndef LAUNCHOPT_PERSISTENT_INLINE_THREADS
#define LAUNCHOPT_PERSISTENT_INLINE_THREADS 64u
#endif
// The megakernel's persistent grid has at least this many blocks per SM
// (within what the device holds), however small the original grid: its
// blocks share the recorded children's threads.
#ifndef LAUNCHOPT_PERSISTENT_MIN_BLOCKS_PER_SM
#define LAUNCHOPT_PERSISTENT_MIN_BLOCKS_PER_SM 1
#endif

#pragma nv_diag_suppress 177

namespace launchopt {
namespace persistent {
namespace {

// Loads from L2, past the SM's L1 (ld.global.cg): what other blocks wrote
// before a grid barrier, where this block may hold an older line. Written
// as PTX rather than __ldcg, which Clang's CUDA headers lack for these
// types (launchopt reads its own outputs again).
__device__ inline unsigned loadFromL2(const unsigned *p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ inline unsigned long long loadFromL2(const unsigned long long *p) {
  unsigned long long v;
  asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

// The most blocks of a persistent grid that number a round's records
// together; a larger grid leaves it to its first block.
#ifndef LAUNCHOPT_PERSISTENT_MAX_GRID
#define LAUNCHOPT_PERSISTENT_MAX_GRID 8192u
#endif

// A round of more records than this many per thread of a block is numbered
// by the whole grid (one grid barrier more); a smaller one by its first
// block alone, each of whose threads waits for one record's load after
// another.
#ifndef LAUNCHOPT_PERSISTENT_RECORDS_PER_THREAD
#define LAUNCHOPT_PERSISTENT_RECORDS_PER_THREAD 8u
#endif

// The configuration of a recorded launch. A record of a child is
// { LaunchShape shape; struct { <the child's parameters> } args; }.
struct LaunchShape {
  dim3 grid;
  dim3 block;
  unsigned sharedMemory;
};

// A ring of records in memory the host allocated (installRing).
template <typename Record> struct Ring {
  Record *records;
  unsigned long long *first;
  unsigned long long capacity; // a power of two (slots are taken by a mask); 0: none installed
};

// The launches the threads of one persistent parent grid recorded. A
// __device__ variable of the parent: zero when the module loads, and reset
// by the grid's last step for the next launch of the parent.
// Records are numbered in the order they were taken, over all rounds; record
// i lives in slot i % capacity(), in the ring the host installed or else in
// the Capacity records below.
template <typename Record, unsigned Capacity> struct Queue {
  unsigned long long count;           // launches recorded (a full queue's ran in their thread)
  unsigned long long begin;           // the first record of the running round
  unsigned long long next;            // the next unit a block takes (a record, or a child block)
  unsigned long long subtasks;        // the units of work of the running round
  unsigned settled;                   // the Units of this launch (Choose settled)
  unsigned finished;                  // blocks done with this launch; the last resets the queue
  unsigned arrived;                   // blocks at the grid barrier (gridBarrier)
  unsigned generation;                // grid barriers passed, ever
  Ring<Record> ring;                  // set by the host before the first launch, or none
  unsigned long long first[Capacity]; // the first unit of each record, by slot
  // The units of each block's share of a round's records, where the grid
  // numbers them together (numberUnitsTogether).
  unsigned long long partial[LAUNCHOPT_PERSISTENT_MAX_GRID];
  // Storage, not Records: a record has no default constructor.
  alignas(Record) unsigned char records[Capacity * sizeof(Record)];
  __device__ unsigned long long capacity() const {
    return ring.capacity ? ring.capacity : Capacity;
  }
  __device__ Record &at(unsigned long long i) {
    return ring.capacity ? ring.records[i & (ring.capacity - 1)]
                         : reinterpret_cast<Record *>(records)[i % Capacity];
  }
  __device__ const Record &at(unsigned long long i) const {
    return ring.capacity ? ring.records[i & (ring.capacity - 1)]
                         : reinterpret_cast<const Record *>(records)[i % Capacity];
  }
  __device__ unsigned long long *firstSlot(unsigned long long i) {
    return ring.capacity ? &ring.first[i & (ring.capacity - 1)] : &first[i % Capacity];
  }
  __device__ const unsigned long long *firstSlot(unsigned long long i) const {
    return ring.capacity ? &ring.first[i & (ring.capacity - 1)] : &first[i % Capacity];
  }
  __device__ void setFirst(unsigned long long i, unsigned long long unit) { *firstSlot(i) = unit; }
  // Reads past a grid barrier of what other blocks wrote, from L2
  // (loadFromL2): a slot read in an earlier round may hold another record now.
  __device__ unsigned long long firstOf(unsigned long long i) const {
    return loadFromL2(firstSlot(i));
  }
  // The configuration of record i alone (from L2), where the arguments are
  // not needed: a record starts with its LaunchShape.
  __device__ LaunchShape shapeOf(unsigned long long i) const {
    const unsigned *from = reinterpret_cast<const unsigned *>(&at(i).shape);
    unsigned words[sizeof(LaunchShape) / sizeof(unsigned)];
    for (unsigned w = 0; w < sizeof(LaunchShape) / sizeof(unsigned); ++w)
      words[w] = loadFromL2(from + w);
    LaunchShape shape;
    memcpy(&shape, words, sizeof(LaunchShape));
    return shape;
  }
  __device__ Record load(unsigned long long i) const {
    static_assert(sizeof(Record) % sizeof(unsigned) == 0, "records are whole words");
    alignas(Record) unsigned words[sizeof(Record) / sizeof(unsigned)];
    const unsigned *from = reinterpret_cast<const unsigned *>(&at(i));
    for (unsigned w = 0; w < sizeof(Record) / sizeof(unsigned); ++w)
      words[w] = loadFromL2(from + w);
    Record r = *reinterpret_cast<const Record *>(words);
    return r;
  }
};

__device__ inline unsigned linearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ inline unsigned blockThreads() { return blockDim.x * blockDim.y * blockDim.z; }

__device__ inline unsigned long long extent(const dim3 &d) {
  return (unsigned long long)d.x * d.y * d.z;
}

__device__ inline uint3 unflatten(unsigned long long i, const dim3 &e) {
  return make_uint3((unsigned)(i % e.x), (unsigned)((i / e.x) % e.y),
                    (unsigned)(i / ((unsigned long long)e.x * e.y)));
}

// Called by a parent thread where it launched: keeps the launch for the
// grid; false when the queue is full, and then the thread runs it itself.
// A number past the ring gives itself back: the counter rises past the
// limit only while such threads have not yet, so every number below it is
// taken by a stored record and the round's records have no gaps.
template <typename Record, unsigned Capacity>
__device__ bool record(Queue<Record, Capacity> &q, const Record &r) {
  unsigned long long i = atomicAdd(&q.count, 1ull);
  if (i >= *(volatile unsigned long long *)&q.begin + q.capacity()) {
    atomicAdd(&q.count, ~0ull); // minus one
    return false;
  }
  memcpy(&q.at(i), &r, sizeof(Record));
  return true;
}

// The record of a parent that launches several child kernels: the launch's
// shape, which child it launches (the index of that child's record type
// among Records, each { LaunchShape shape; Arguments args; }), and that
// child's arguments. WholeBlockChildren has bit i set where child i's
// threads work together (a block of the grid runs each of its blocks as
// one); the others' threads are independent, and a block of the grid runs a
// block's worth of them at a time, whatever the child's block (packsThreads).
// The code that runs a child thread dispatches on `child`.
template <unsigned WholeBlockChildren, typename... Records> struct RecordOfAny {
  static_assert(sizeof...(Records) <= 32, "a parent of at most 32 child kernels");
  static constexpr size_t largest(std::initializer_list<size_t> sizes) {
    size_t most = 4;
    for (size_t s : sizes)
      most = s > most ? s : most;
    return most;
  }
  static constexpr size_t ArgumentsAlign = largest({alignof(decltype(Records::args))...});
  static constexpr size_t ArgumentsBytes = largest({sizeof(decltype(Records::args))...});

  LaunchShape shape;
  unsigned child;
  alignas(ArgumentsAlign) unsigned char args[(ArgumentsBytes + 3) / 4 * 4];

  template <unsigned Child, typename Record> __device__ static RecordOfAny of(const Record &r) {
    static_assert(std::is_same<Record, typename std::tuple_element<
                                           Child, std::tuple<Records...>>::type>::value,
                  "a child's record is tagged with its own index");
    RecordOfAny any;
    any.shape = r.shape;
    any.child = Child;
    memcpy(any.args, &r.args, sizeof(r.args));
    return any;
  }
  // The arguments of a record whose `child` is Child.
  template <unsigned Child> __device__ const auto &argsOf() const {
    using Record = typename std::tuple_element<Child, std::tuple<Records...>>::type;
    return *reinterpret_cast<const decltype(Record::args) *>(args);
  }
};

// record and recordBlocks for a launch of the parent's child number Child.
template <unsigned Child, unsigned Mask, typename... Records, unsigned Capacity, typename Record>
__device__ bool recordAs(Queue<RecordOfAny<Mask, Records...>, Capacity> &q, const Record &r) {
  return record(q, RecordOfAny<Mask, Records...>::template of<Child>(r));
}

// Whether the grid runs a record's child threads a block's worth at a time
// (a child of independent threads among several children); a one-child
// queue's records run as the grid's Units say.
template <typename Record> __device__ bool packsThreads(const Record &) { return false; }
template <unsigned Mask, typename... Records>
__device__ bool packsThreads(const RecordOfAny<Mask, Records...> &r) {
  return !((Mask >> r.child) & 1u);
}
// The same for record i of the queue, of which it loads the tag alone.
template <typename Record, unsigned Capacity>
__device__ bool packsThreadsAt(const Queue<Record, Capacity> &, unsigned long long) {
  return false;
}
template <unsigned Mask, typename... Records, unsigned Capacity>
__device__ bool packsThreadsAt(const Queue<RecordOfAny<Mask, Records...>, Capacity> &q,
                               unsigned long long i) {
  return !((Mask >> loadFromL2(&q.at(i).child)) & 1u);
}

__device__ inline unsigned dynamicSharedBytes() {
  unsigned bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}

// Launches of a child whose threads work together that found the queue full,
// kept by the block whose thread made them (a stack in the device heap),
// which runs them itself, depth first, once its current unit of work is done
// (drainOverflow): no thread can run such a child alone, and the queue frees
// only at the end of a round. (Putting them back in the queue between
// rounds instead ran qt's deepest input 50x slower on the H200: one thread
// of a block requeues its whole stack.)
template <typename Record> struct OverflowRecord {
  Record record;
  OverflowRecord *next;
};
__shared__ void *blockOverflow;

// Called where a thread launched a child whose threads work together
// (barriers, shared memory, warp primitives): a block of the grid runs each
// of its blocks as one, so it must have the grid's block shape and fit its
// dynamic shared memory (launchopt checked both from constants). When the
// queue is full the block keeps the launch; when the device heap is full too,
// the grid stops with the reason.
template <typename Record, unsigned Capacity>
__device__ void recordBlocks(Queue<Record, Capacity> &q, const Record &r) {
  const dim3 &b = r.shape.block;
  if (b.x != blockDim.x || b.y != blockDim.y || b.z != blockDim.z ||
      r.shape.sharedMemory > dynamicSharedBytes()) {
    printf("launchopt: a removed launch of blocks of %u x %u x %u threads and %u bytes of dynamic "
           "shared memory reached a persistent grid of blocks of %u x %u x %u threads and %u "
           "bytes\n",
           b.x, b.y, b.z, r.shape.sharedMemory, blockDim.x, blockDim.y, blockDim.z,
           dynamicSharedBytes());
    __trap();
  }
  if (record(q, r))
    return;
  auto *node = static_cast<OverflowRecord<Record> *>(malloc(sizeof(OverflowRecord<Record>)));
  if (!node) {
    printf("launchopt: a removed launch of a child whose threads work together found the "
           "persistent grid's queue (%llu launches) and the device heap full: raise "
           "LAUNCHOPT_PERSISTENT_RING_BYTES or LAUNCHOPT_PERSISTENT_HEAP\n",
           q.capacity());
    __trap();
  }
  memcpy(&node->record, &r, sizeof(Record));
  node->next = static_cast<OverflowRecord<Record> *>(
      (void *)atomicExch(reinterpret_cast<unsigned long long *>(&blockOverflow),
                         reinterpret_cast<unsigned long long>(node)));
  __threadfence_block();
}

template <unsigned Child, unsigned Mask, typename... Records, unsigned Capacity, typename Record>
__device__ void recordBlocksAs(Queue<RecordOfAny<Mask, Records...>, Capacity> &q,
                               const Record &r) {
  recordBlocks(q, RecordOfAny<Mask, Records...>::template of<Child>(r));
}

// Stands for creating or destroying a stream that only recorded launches
// used: nothing to do.
__device__ inline cudaError_t streamUnused() { return cudaSuccess; }

// A launch whose grid is not the ceiling of its thread count (a wrapped
// count: 2^27 blocks) found the queue full. Run by its thread it would not
// end: the grid stops with the reason instead.
__device__ inline void wrappedGridFindsQueueFull() {
  printf("launchopt: a removed launch of a grid that is not the ceiling of its thread count "
         "(a wrapped count) found the persistent grid's queue full, and one thread cannot run "
         "it: raise LAUNCHOPT_PERSISTENT_RING_BYTES\n");
  __trap();
}

// The original parent blocks, run in turn by the persistent blocks. Every
// thread of a block takes the same blocks, so the parent's own barriers
// hold; the barrier after each keeps its shared memory from being reused
// while a thread still reads it.
template <typename RunBlock>
__device__ void runParentBlocks(const dim3 &parentGrid, RunBlock runBlock) {
  if (linearThread() == 0)
    blockOverflow = nullptr;
  __syncthreads();
  unsigned long long blocks = extent(parentGrid);
  for (unsigned long long b = blockIdx.x; b < blocks; b += gridDim.x) {
    runBlock(unflatten(b, parentGrid));
    __syncthreads();
  }
}

// The next unit of work for the whole block, taken by its first thread.
template <typename Record, unsigned Capacity>
__device__ unsigned long long take(Queue<Record, Capacity> &q) {
  __shared__ unsigned long long taken;
  if (linearThread() == 0)
    taken = atomicAdd(&q.next, 1ull);
  __syncthreads();
  unsigned long long unit = taken;
  __syncthreads();
  return unit;
}

template <typename Record, typename RunThread>
__device__ void runChildBlock(const Record &r, unsigned long long b, RunThread &runThread) {
  uint3 block = unflatten(b, r.shape.grid);
  unsigned childThreads = (unsigned)extent(r.shape.block);
  for (unsigned t = linearThread(); t < childThreads; t += blockThreads())
    runThread(r, block, unflatten(t, r.shape.block));
}

// How the persistent grid takes the recorded work.
enum Units : unsigned {
  ChildGrids = 0,  // T2
  ChildBlocks = 1, // T1
  Choose = 2,      // the megakernel: one of the others, chosen from the recorded launches
  ChildThreads = 3, // a block's worth of child threads at a time
};

// The most units a record is cut into per persistent block: past it, a
// unit is a run of child blocks, so that a huge grid (a wrapped count gives
// 2^27 blocks) costs few takes.
#ifndef LAUNCHOPT_PERSISTENT_UNITS_PER_BLOCK
#define LAUNCHOPT_PERSISTENT_UNITS_PER_BLOCK 64u
#endif

// The child blocks of one unit of a record run by blocks (T1, or T2's grid
// with more blocks than the persistent grid, which one block would run for
// longer than the rest together); 0 for T2's whole grid.
__device__ inline unsigned long long blocksPerUnit(unsigned long long blocks, Units settled) {
  if (settled == ChildGrids && blocks <= gridDim.x)
    return 0;
  unsigned long long most = (unsigned long long)gridDim.x * LAUNCHOPT_PERSISTENT_UNITS_PER_BLOCK;
  return blocks > most ? (blocks + most - 1) / most : 1;
}

// The units of work of a record: one per child thread (ChildThreads), one
// per run of child blocks (T1), or the whole child grid as one (T2).
__device__ inline unsigned long long unitsOf(const LaunchShape &shape, Units settled) {
  unsigned long long blocks = extent(shape.grid);
  if (settled == ChildThreads)
    return blocks * extent(shape.block);
  unsigned long long span = blocksPerUnit(blocks, settled);
  return span == 0 ? 1 : (blocks + span - 1) / span;
}

// The child threads a block runs per take when they are packed: a block's
// worth, or as many more as keep the takes to
// LAUNCHOPT_PERSISTENT_UNITS_PER_BLOCK per persistent block.
__device__ inline unsigned long long threadsPerTake(unsigned long long units) {
  unsigned long long chunk = blockThreads();
  unsigned long long most = (unsigned long long)gridDim.x * LAUNCHOPT_PERSISTENT_UNITS_PER_BLOCK;
  unsigned long long chunks = (units + chunk - 1) / chunk;
  return chunks > most ? ((chunks + most - 1) / most) * chunk : chunk;
}

// The child blocks of one unit of a record whose threads the grid packs
// (packsThreads): as many as its Units take (the whole grid for T2), but at
// least as many as fill a block of the grid, whose threads run them all
// together. A unit per record where the grid is not cut keeps the search
// for a unit's record short (recordOf).
__device__ inline unsigned long long packedSpan(const LaunchShape &shape, Units settled) {
  unsigned long long blocks = extent(shape.grid), span = blocksPerUnit(blocks, settled);
  if (span == 0)
    return blocks > 0 ? blocks : 1;
  unsigned long long perBlock = extent(shape.block);
  unsigned long long fill = perBlock > 0 ? (blockThreads() + perBlock - 1) / perBlock : 1;
  return span > fill ? span : fill;
}

// The units of record i: those of its shape (unitsOf), or for a record
// whose threads the grid packs, its runs of packedSpan child blocks.
template <typename Record, unsigned Capacity>
__device__ unsigned long long recordUnits(const Queue<Record, Capacity> &q, unsigned long long i,
                                          Units settled) {
  const LaunchShape shape = q.shapeOf(i);
  if (settled == ChildThreads || !packsThreadsAt(q, i))
    return unitsOf(shape, settled);
  unsigned long long span = packedSpan(shape, settled);
  return (extent(shape.grid) + span - 1) / span;
}

// Whether the megakernel's launching thread runs a child itself: a small
// child costs it less than recording it and sharing its threads.
__device__ inline bool runsInline(const dim3 &grid, const dim3 &block) {
  return extent(grid) * extent(block) <= (unsigned long long)LAUNCHOPT_PERSISTENT_INLINE_THREADS;
}

// Fig. 7b: T2 leaves the block with the largest child grid more child
// blocks than T1's even share; T1 pays a take for every child block. T1
// when the first costs more.
__device__ inline bool childBlocksPay(unsigned long long total, unsigned long long largest,
                                      unsigned long long largestThreads) {
  unsigned long long share = (total + gridDim.x - 1) / gridDim.x;
  if (largest <= share)
    return false;
  unsigned long long steps = (largestThreads + blockThreads() - 1) / blockThreads();
  return (largest - share) * steps > share * (unsigned long long)LAUNCHOPT_T1_TAKE_COST;
}

// Block 0, for Choose: the recorded child blocks, the largest child grid
// and its block's threads decide. Child blocks of at most half a persistent
// block would leave half its threads idle under T1 and T2: their threads
// are packed (ChildThreads). Otherwise T1 or T2 as Fig. 7b says.
template <typename Record, unsigned Capacity>
__device__ Units chooseUnits(Queue<Record, Capacity> &q, unsigned long long begin, unsigned n) {
  __shared__ unsigned long long total, largest, largestThreads;
  if (linearThread() == 0)
    total = largest = largestThreads = 0;
  __syncthreads();
  for (unsigned i = linearThread(); i < n; i += blockThreads()) {
    const LaunchShape shape = q.shapeOf(begin + i);
    unsigned long long blocks = extent(shape.grid);
    atomicAdd(&total, blocks);
    atomicMax(&largest, blocks);
    atomicMax(&largestThreads, extent(shape.block));
  }
  __syncthreads();
  Units chosen = 2 * largestThreads <= blockThreads()                   ? ChildThreads
                 : childBlocksPay(total, largest, largestThreads) ? ChildBlocks
                                                                  : ChildGrids;
  __syncthreads();
  return chosen;
}

// The exclusive prefix sum of the block's values, one per thread; total is
// their sum. Reached by every thread of the block.
__device__ inline unsigned long long blockExclusiveSum(unsigned long long mine,
                                                       unsigned long long &total) {
  __shared__ unsigned long long warpTotals[32];
  unsigned me = linearThread(), threads = blockThreads();
  unsigned lane = me % 32, warp = me / 32, warps = (threads + 31) / 32;
  __syncthreads(); // the last call's readers are done with warpTotals
  // Inclusive scan within warps, then over warps. Every thread of the block
  // is here, but not necessarily converged (__activemask() may name only
  // some of a warp): the lanes are the warp's threads, fewer in a partial
  // last warp.
  unsigned long long inclusive = mine;
  unsigned lanes = warp == warps - 1 && threads % 32 != 0 ? (1u << (threads % 32)) - 1 : ~0u;
  __syncwarp(lanes);
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned long long up = __shfl_up_sync(lanes, inclusive, d);
    if (lane >= d)
      inclusive += up;
  }
  if (lane == 31 || me == threads - 1)
    warpTotals[warp] = inclusive;
  __syncthreads();
  if (me == 0)
    for (unsigned w = 1; w < warps; ++w)
      warpTotals[w] += warpTotals[w - 1];
  __syncthreads();
  total = warpTotals[warps - 1];
  return inclusive - mine + (warp > 0 ? warpTotals[warp - 1] : 0);
}

// The Units of this launch: q.settled after the first round; in the first,
// `units`, or block 0's choice from the recorded launches for Choose. Block
// 0 keeps it in q.settled; with Choose the other blocks wait for it at a
// grid barrier (shared: every block takes part) or do not need it (block 0
// numbers alone).
template <typename Record, unsigned Capacity>
__device__ Units settleUnits(Queue<Record, Capacity> &q, unsigned long long begin, unsigned n,
                             Units units, bool firstRound, bool shared) {
  if (!firstRound)
    return (Units)loadFromL2(&q.settled);
  Units settled = units;
  if (blockIdx.x == 0) {
    if (units == Choose)
      settled = chooseUnits(q, begin, n);
    if (linearThread() == 0)
      q.settled = settled;
  }
  if (units != Choose || !shared)
    return settled;
  gridBarrier(q);
  return (Units)loadFromL2(&q.settled);
}

// Numbers the units of the round's n records from begin, by block 0 alone:
// the first unit of each record, an exclusive prefix sum, and the round's
// start (q.begin, q.next, q.subtasks).
template <typename Record, unsigned Capacity>
__device__ void numberUnits(Queue<Record, Capacity> &q, unsigned long long begin, unsigned n,
                            Units settled) {
  if (blockIdx.x != 0)
    return;
  unsigned me = linearThread(), threads = blockThreads();
  if (me == 0) {
    q.begin = begin;
    q.next = 0;
  }
  unsigned chunk = (n + threads - 1) / threads;
  unsigned from = me * chunk < n ? me * chunk : n, to = from + chunk < n ? from + chunk : n;
  unsigned long long mine = 0, total = 0;
  for (unsigned i = from; i < to; ++i)
    mine += recordUnits(q, begin + i, settled);
  unsigned long long offset = blockExclusiveSum(mine, total);
  for (unsigned i = from; i < to; ++i) {
    q.setFirst(begin + i, offset);
    offset += recordUnits(q, begin + i, settled);
  }
  if (me == 0)
    q.subtasks = total;
}

// The same by every block of the grid, for a round of many records: each
// block sums the units of its share of them (q.partial), and after a grid
// barrier numbers its share from the sum of the shares before it.
template <typename Record, unsigned Capacity>
__device__ void numberUnitsTogether(Queue<Record, Capacity> &q, unsigned long long begin,
                                    unsigned n, Units settled) {
  unsigned me = linearThread(), threads = blockThreads();
  unsigned long long share = (n + gridDim.x - 1) / gridDim.x;
  unsigned long long from = (unsigned long long)blockIdx.x * share;
  from = from < n ? from : n;
  unsigned long long to = from + share < n ? from + share : n;
  unsigned long long mine = 0, total = 0;
  for (unsigned long long i = from + me; i < to; i += threads)
    mine += recordUnits(q, begin + i, settled);
  blockExclusiveSum(mine, total);
  if (me == 0)
    q.partial[blockIdx.x] = total;
  gridBarrier(q);
  mine = 0;
  for (unsigned b = me; b < blockIdx.x; b += threads)
    mine += loadFromL2(&q.partial[b]);
  unsigned long long offset = 0;
  blockExclusiveSum(mine, offset);
  for (unsigned long long tile = from; tile < to; tile += threads) {
    unsigned long long i = tile + me;
    unsigned long long units = i < to ? recordUnits(q, begin + i, settled) : 0, tileUnits = 0;
    unsigned long long before = blockExclusiveSum(units, tileUnits);
    if (i < to)
      q.setFirst(begin + i, offset + before);
    offset += tileUnits;
  }
  // The last block's numbers end where the round's units do.
  if (me == 0 && blockIdx.x == gridDim.x - 1)
    q.subtasks = offset;
  if (me == 0 && blockIdx.x == 0) {
    q.begin = begin;
    q.next = 0;
  }
}

// The record of the round whose units hold unit s: the last with first <= s.
// The search starts where s would be if every record had as many units
// (exact for the uniform child grids of a recursion), then doubles its steps
// until it brackets the record, then halves the bracket: each probe waits
// for a load from L2, and a plain halving of the round took 16 of them.
template <typename Record, unsigned Capacity>
__device__ unsigned long long recordOf(const Queue<Record, Capacity> &q, unsigned long long begin,
                                       unsigned n, unsigned long long units,
                                       unsigned long long s) {
  unsigned guess = (unsigned)((double)s / (double)units * n);
  guess = guess < n ? guess : n - 1;
  // first(lo) <= s < first(hi), where first(n) stands for the end.
  unsigned lo, hi;
  if (q.firstOf(begin + guess) <= s) {
    lo = guess;
    for (unsigned step = 1;; step *= 2) {
      hi = lo + step < n ? lo + step : n;
      if (hi == n || q.firstOf(begin + hi) > s)
        break;
      lo = hi;
    }
  } else {
    hi = guess;
    for (unsigned step = 1;; step *= 2) {
      lo = hi > step ? hi - step : 0;
      if (lo == 0 || q.firstOf(begin + lo) <= s)
        break;
      hi = lo;
    }
  }
  while (hi - lo > 1) {
    unsigned mid = lo + (hi - lo) / 2;
    if (q.firstOf(begin + mid) <= s)
      lo = mid;
    else
      hi = mid;
  }
  return begin + lo;
}

// Runs the recorded child threads, a block's worth (or a few) at a time:
// thread t of a block runs the t-th thread of each block's worth it took,
// whichever grid that is in.
template <typename Record, unsigned Capacity, typename RunThread>
__device__ void runChildThreads(Queue<Record, Capacity> &q, unsigned long long begin, unsigned n,
                                unsigned long long units, RunThread &runThread) {
  unsigned long long chunk = threadsPerTake(units);
  for (unsigned long long c = take(q); c * chunk < units; c = take(q)) {
    unsigned long long end = c * chunk + chunk < units ? c * chunk + chunk : units;
    for (unsigned long long u = c * chunk + linearThread(); u < end; u += blockThreads()) {
      unsigned long long i = recordOf(q, begin, n, units, u);
      const Record r = q.load(i);
      unsigned long long local = u - q.firstOf(i), threads = extent(r.shape.block);
      runThread(r, unflatten(local / threads, r.shape.grid),
                unflatten(local % threads, r.shape.block));
    }
  }
}

// Runs unit `unit` of a record whose threads the grid packs (recordUnits):
// its run of child blocks, thread t of the block running every t-th thread
// of them.
template <typename Record, typename RunThread>
__device__ void runPackedUnit(const Record &r, unsigned long long unit, Units settled,
                              RunThread &runThread) {
  unsigned long long blocks = extent(r.shape.grid), span = packedSpan(r.shape, settled);
  unsigned long long perBlock = extent(r.shape.block);
  unsigned long long to = unit * span + span < blocks ? unit * span + span : blocks;
  for (unsigned long long u = unit * span * perBlock + linearThread(); u < to * perBlock;
       u += blockThreads())
    runThread(r, unflatten(u / perBlock, r.shape.grid), unflatten(u % perBlock, r.shape.block));
}

// Runs the launches this block kept when the queue was full (recordBlocks),
// the last kept first, each child block as one; those they make when the
// queue is still full join the stack. Reached by every thread of the block.
template <typename Record, typename RunThread>
__device__ void drainOverflow(RunThread &runThread) {
  __shared__ OverflowRecord<Record> *taken;
  while (true) {
    __syncthreads();
    if (linearThread() == 0) {
      taken = static_cast<OverflowRecord<Record> *>(blockOverflow);
      if (taken)
        blockOverflow = taken->next;
    }
    __syncthreads();
    if (!taken)
      return;
    const Record r = taken->record;
    __syncthreads();
    if (linearThread() == 0)
      free(taken);
    for (unsigned long long b = 0, blocks = extent(r.shape.grid); b < blocks; ++b) {
      runChildBlock(r, b, runThread);
      __syncthreads();
    }
  }
}

// A barrier of the whole persistent grid, whose blocks are all resident (a
// cooperative launch). The blocks that wait sleep between polls, up to about
// a microsecond: a recursion's first rounds keep a few threads busy while the
// rest of the grid waits, and a grid polling without pause slows their memory
// accesses (cooperative groups' grid.sync() does; -DLAUNCHOPT_PERSISTENT_GRID_SYNC
// uses it instead). Longer pauses for larger grids (8 to 128 ns per block)
// were no faster on the H200 and up to 1.4x slower (deep_partition).
template <typename Record, unsigned Capacity>
__device__ void gridBarrier(Queue<Record, Capacity> &q) {
#ifdef LAUNCHOPT_PERSISTENT_GRID_SYNC
  (void)q;
  cooperative_groups::this_grid().sync();
#else
  __syncthreads();
  if (linearThread() == 0) {
    volatile unsigned *generation = &q.generation;
    unsigned seen = *generation;
    __threadfence();
    if (atomicAdd(&q.arrived, 1u) == gridDim.x - 1) {
      q.arrived = 0;
      __threadfence();
      atomicAdd(&q.generation, 1u);
    } else {
      unsigned pause = 32;
      while (*generation == seen) {
        __nanosleep(pause);
        if (pause < 1024)
          pause *= 2;
      }
    }
    __threadfence();
  }
  __syncthreads();
#endif
}

// After the parent's own work, reached by every thread of the grid: runs the
// recorded launches, the blocks taking units dynamically (T2: a whole child
// grid; T1: a child block; ChildThreads: a block's worth of child threads),
// and resets the queue for the next launch of the parent. RunThread(record,
// blockIdx, threadIdx) runs one child thread. Recursive: the child records
// launches too, run in further rounds until one records none. WholeBlocks:
// the child's threads work together, and a block runs a child block as one
// (its blocks have the child's shape; `how` is ChildBlocks or ChildGrids),
// with a barrier before the next reuses the child's shared memory.
template <bool Recursive = false, bool WholeBlocks = false, typename Record, unsigned Capacity,
          typename RunThread>
__device__ void runRecorded(Queue<Record, Capacity> &q, Units how, RunThread runThread) {
  if (WholeBlocks)
    drainOverflow<Record>(runThread);
  gridBarrier(q);
  // Nothing recorded (every child ran in its thread): no numbering and no
  // second barrier.
  for (unsigned long long begin = 0, end = loadFromL2(&q.count); end > begin;) {
    unsigned n = (unsigned)(end - begin);
    bool shared = n > LAUNCHOPT_PERSISTENT_RECORDS_PER_THREAD * blockThreads() &&
                  gridDim.x <= LAUNCHOPT_PERSISTENT_MAX_GRID;
    Units settling = settleUnits(q, begin, n, how, begin == 0, shared);
    if (shared)
      numberUnitsTogether(q, begin, n, settling);
    else
      numberUnits(q, begin, n, settling);
    gridBarrier(q);
    Units settled = (Units)loadFromL2(&q.settled);
    unsigned long long units = loadFromL2(&q.subtasks);
    if (settled == ChildThreads) {
      runChildThreads(q, begin, n, units, runThread);
    } else {
      for (unsigned long long s = take(q); s < units; s = take(q)) {
        unsigned long long i = recordOf(q, begin, n, units, s);
        const Record r = q.load(i);
        if (packsThreads(r)) {
          runPackedUnit(r, s - q.firstOf(i), settled, runThread);
          continue;
        }
        unsigned long long blocks = extent(r.shape.grid), span = blocksPerUnit(blocks, settled);
        unsigned long long from = span == 0 ? 0 : (s - q.firstOf(i)) * span;
        unsigned long long to = span == 0 || from + span > blocks ? blocks : from + span;
        for (unsigned long long b = from; b < to; ++b) {
          runChildBlock(r, b, runThread);
          if (WholeBlocks)
            __syncthreads();
        }
        if (WholeBlocks)
          drainOverflow<Record>(runThread);
      }
    }
    if (!Recursive)
      break;
    // Every block is past the round: what it recorded is counted.
    gridBarrier(q);
    begin = end;
    end = loadFromL2(&q.count);
  }
  // The last block out resets the queue: every block has read it by then.
  __syncthreads();
  if (linearThread() == 0) {
    __threadfence();
    if (atomicAdd(&q.finished, 1u) == gridDim.x - 1) {
      q.count = 0;
      q.begin = 0;
      q.next = 0;
      q.subtasks = 0;
      q.finished = 0;
      __threadfence();
    }
  }
}

// Raises the device threads' stack to LAUNCHOPT_PERSISTENT_STACK bytes, once.
inline void raiseStackOnce() {
  static bool raised = false;
  if (raised)
    return;
  raised = true;
  size_t bytes = 0;
  if (LAUNCHOPT_PERSISTENT_STACK > 0 && cudaDeviceGetLimit(&bytes, cudaLimitStackSize) == cudaSuccess &&
      bytes < (size_t)(LAUNCHOPT_PERSISTENT_STACK))
    cudaDeviceSetLimit(cudaLimitStackSize, LAUNCHOPT_PERSISTENT_STACK);
  (void)cudaGetLastError();
}

// Raises the device heap to LAUNCHOPT_PERSISTENT_HEAP bytes, once, where the
// grid's blocks keep the launches of children whose threads work together
// that find the queue full. The device keeps the heap it has once a kernel
// that uses it has run: then the call fails and the heap stays as it is.
inline void raiseHeapOnce() {
  static bool raised = false;
  if (raised)
    return;
  raised = true;
  size_t bytes = 0;
  if (LAUNCHOPT_PERSISTENT_HEAP > 0 &&
      cudaDeviceGetLimit(&bytes, cudaLimitMallocHeapSize) == cudaSuccess &&
      bytes < (size_t)(LAUNCHOPT_PERSISTENT_HEAP))
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, LAUNCHOPT_PERSISTENT_HEAP);
  (void)cudaGetLastError();
}

// Host side, before a persistent grid's first launch on a device: allocates
// its ring of records (LAUNCHOPT_PERSISTENT_RING_BYTES at most, a sixteenth
// of the free device memory at most) and installs it in the grid's queue, a
// __device__ variable. Where that fails, or would hold no more records than
// the queue's own, the queue keeps its own. Once per queue and device.
template <typename Record, unsigned Capacity> void installRing(Queue<Record, Capacity> &queue) {
  using QueueType = Queue<Record, Capacity>;
  static int installedOn[64] = {}; // 1 + the device, per queue (one instantiation per queue type)
  static const void *installedQueue[64] = {};
  int device = 0;
  void *address = nullptr;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetSymbolAddress(&address, queue) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  for (unsigned k = 0; k < 64; ++k) {
    if (installedOn[k] == device + 1 && installedQueue[k] == address)
      return;
    if (installedOn[k] == 0) {
      installedOn[k] = device + 1;
      installedQueue[k] = address;
      break;
    }
  }
  size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  unsigned long long bytes = LAUNCHOPT_PERSISTENT_RING_BYTES;
  bytes = bytes < free / 16 ? bytes : free / 16;
  unsigned long long fits = bytes / (sizeof(Record) + sizeof(unsigned long long));
  Ring<Record> ring = {nullptr, nullptr, 1};
  while (ring.capacity * 2 <= fits)
    ring.capacity *= 2;
  if (ring.capacity <= Capacity)
    return;
  if (cudaMalloc(&ring.records, ring.capacity * sizeof(Record)) != cudaSuccess ||
      cudaMalloc(&ring.first, ring.capacity * sizeof(unsigned long long)) != cudaSuccess ||
      cudaMemcpy(static_cast<char *>(address) + offsetof(QueueType, ring), &ring, sizeof ring,
                 cudaMemcpyHostToDevice) != cudaSuccess) {
    cudaFree(ring.records);
    cudaFree(ring.first);
    (void)cudaGetLastError();
  }
}

// When the host launches the persistent grid rather than the original.
enum When : unsigned {
  Always = 0, // T1 and T2
  // The megakernel when the child sizes are not known: its grid has at least
  // LAUNCHOPT_PERSISTENT_MIN_BLOCKS_PER_SM blocks per SM to share the
  // recorded children's threads, even where the original grid is smaller.
  AlwaysSpread = 2,
  // Fig. 7a: only when the device holds more blocks than the original grid
  // has (uniform child grids: the original's own threads balance them).
  MoreResidentThanOriginal = 1,
};

// Host side: launches the persistent kernel (whose first parameter is the
// original grid) cooperatively over as many blocks as the device holds at
// once, at most the original grid's. Where the device cannot launch it so
// (no cooperative launch, no block fits, an empty or invalid grid), or
// `when` says the original does better, the original kernel is launched as
// written: its launches are removed by its own threads (T4), and any launch
// error is the original's. The driver also refuses a cooperative launch of a
// kernel that calls the device runtime (a `cudaGetLastError()` left in a
// helper is enough); such a kernel is then launched as written from then on.
//
// Recursive: the persistent grid runs a child that launches itself, whose
// launches a full queue leaves to the launching thread, one nested call per
// level; the threads' stack is raised once to LAUNCHOPT_PERSISTENT_STACK
// bytes (never lowered; 0 leaves it as it is), and the grid has at least
// LAUNCHOPT_PERSISTENT_RECURSIVE_BLOCKS_PER_SM blocks per SM. WholeBlocks:
// the child's threads work together, and the grid's blocks keep the launches
// that find the queue full in the device heap, raised once to
// LAUNCHOPT_PERSISTENT_HEAP bytes.
template <bool Recursive = false, bool WholeBlocks = false, typename Record, unsigned Capacity,
          typename... Params, typename... Args>
void launch(void (*persistentKernel)(dim3, Params...), void (*original)(Params...),
            Queue<Record, Capacity> &queue, When when, dim3 grid, dim3 block, size_t sharedMemory,
            cudaStream_t stream, Args &&...args) {
  if (Recursive)
    raiseStackOnce();
  if (WholeBlocks)
    raiseHeapOnce();
  std::tuple<dim3, Params...> values(grid, std::forward<Args>(args)...);
  unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
  // The device's answers, kept for the next launch of this kernel with the
  // same block (a launch in a loop asks once).
  static int knownDevice = -1, cooperative = 0, sms = 0, perSm = 0;
  static unsigned knownThreads = 0;
  static size_t knownShared = 0;
  static bool refused = false; // the driver said no to this kernel once
  int device = 0;
  unsigned threads = block.x * block.y * block.z;
  bool known = cudaGetDevice(&device) == cudaSuccess;
  if (known && (device != knownDevice || threads != knownThreads || sharedMemory != knownShared)) {
    known = cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device) ==
                cudaSuccess &&
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, persistentKernel, (int)threads,
                                                          sharedMemory) == cudaSuccess;
    knownDevice = known ? device : -1;
    knownThreads = threads;
    knownShared = sharedMemory;
  }
  bool persistent = known && cooperative && !refused && perSm > 0 && blocks > 0 &&
                    grid.y <= 65535u && grid.z <= 65535u;
  unsigned long long resident = (unsigned long long)perSm * sms;
  if (persistent && when == MoreResidentThanOriginal && resident <= blocks)
    persistent = false;
  // An error before it (a failed query, a refused cooperative launch) is not
  // the launch's.
  auto launchOriginal = [&] {
    (void)cudaGetLastError();
    std::apply([&](dim3, auto &...p) { original<<<grid, block, sharedMemory, stream>>>(p...); },
               values);
  };
  if (!persistent) {
    launchOriginal();
    return;
  }
  installRing(queue);
  unsigned long long least =
      Recursive              ? (unsigned long long)LAUNCHOPT_PERSISTENT_RECURSIVE_BLOCKS_PER_SM * sms
      : when == AlwaysSpread ? (unsigned long long)LAUNCHOPT_PERSISTENT_MIN_BLOCKS_PER_SM * sms
                             : 0;
  unsigned long long wanted = blocks > least ? blocks : least;
  unsigned persistentBlocks = (unsigned)(wanted < resident ? wanted : resident);
  void *pointers[1 + sizeof...(Params)];
  std::apply(
      [&](auto &...v) {
        unsigned i = 0;
        ((pointers[i++] = (void *)&v), ...);
      },
      values);
  cudaError_t error = cudaLaunchCooperativeKernel((const void *)persistentKernel,
                                                  dim3(persistentBlocks), block, pointers,
                                                  sharedMemory, stream);
  if (error == cudaErrorNotPermitted || error == cudaErrorCooperativeLaunchTooLarge) {
    refused = true;
    launchOriginal();
  }
}

} // namespace
} // namespace persistent
} // namespace launchopt
// ---- end of launchopt/persistent.cuh ----

// Graph colouring (Jones–Plassmann), naive CUDA dynamic parallelism. Each
// round, the parent thread of every uncoloured vertex v launches a child grid
// over v's neighbours that detects a conflict (an uncoloured neighbour with
// higher priority) and clears v's candidacy; the host then colours the
// surviving candidates with the round number and iterates until none is left.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
constexpr int kMaxPending = 1 << 18;  // see bfs_cdp.cu: parent grids are chunked to the pending-launch pool

__device__ unsigned int gc_failed_launches;

__global__ void gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors,
                                    int* candidate) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int u = col_indices[e];
  if (colors[u] < 0 && gc_beats(u, v)) candidate[v] = 0;
}

// launchopt: one thread of 'gc_detect_conflicts', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_ithread_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= edge_end) return;
  int u = col_indices[e];
  if (colors[u] < 0 && gc_beats(u, v)) candidate[v] = 0;
}
}

// launchopt: whether the guard of 'gc_detect_conflicts' ends this thread and every later one in x:
// (e >= edge_end)
static __device__ bool __lo_ithread_exit_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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

// launchopt: every thread of a 'gc_detect_conflicts' grid, one after another (serial version).
static __device__ void __lo_inline_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_ithread_exit_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_ithread_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

// launchopt: a launch of 'gc_detect_conflicts' recorded by a persistent parent grid (T1/T2).
struct __lo_grec_gc_detect_conflicts {
  launchopt::persistent::LaunchShape shape;
  struct Arguments {
    const int* col_indices;
    int v;
    int edge_begin;
    int edge_end;
    const int* colors;
    int* candidate;
    __device__ Arguments(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate) : col_indices(col_indices), v(v), edge_begin(edge_begin), edge_end(edge_end), colors(colors), candidate(candidate) {}
  } args;
};

__global__ void gc_select(GraphDev g, int first, const int* colors, int* candidate) {
  int v = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.num_nodes || colors[v] >= 0) return;
  candidate[v] = 1;
  int begin = g.row_offsets[v], end = g.row_offsets[v + 1];
  if (end == begin) return;
  { // launchopt: launch of 'gc_detect_conflicts' removed (T4): this thread runs the child grid
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
#ifdef __CUDACC_RDC__
    } else if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x)) {
      // not the ceiling of its count (a wrapped count): launched as written
      gc_detect_conflicts<<<__lo_grid1, __lo_block1>>>(g.col_indices, v, begin, end,
                                                                                       colors, candidate);
#endif
    } else {
      __lo_inline_gc_detect_conflicts(g.col_indices, v, begin, end,
                                                                                       colors, candidate, __lo_grid1, __lo_block1);
    }
  }
  if (cudaSuccess != cudaSuccess) atomicAdd(&gc_failed_launches, 1u);
}

// launchopt: the persistent parent grid of 'gc_select' (T2): the launches its threads record, run after a
// grid barrier by any of its blocks, a whole child grid at a time.
__device__ launchopt::persistent::Queue<__lo_grec_gc_detect_conflicts, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_gc_select;

// launchopt: one block of the original 'gc_select' grid, run by a block of the persistent grid;
// the locals below shadow the built-in index variables with the original block's values.
static __device__ void __lo_pblock_gc_select(GraphDev g, int first, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int v = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.num_nodes || colors[v] >= 0) return;
  candidate[v] = 1;
  int begin = g.row_offsets[v], end = g.row_offsets[v + 1];
  if (end == begin) return;
  { // launchopt: launch of 'gc_detect_conflicts' removed (T2): recorded for the persistent parent grid, which runs it after its own work
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
    } else {
      const __lo_grec_gc_detect_conflicts __lo_r1 = {{__lo_grid1, __lo_block1, (unsigned)(0)}, __lo_grec_gc_detect_conflicts::Arguments(g.col_indices, v, begin, end,
                                                                                       colors, candidate)};
      if (!launchopt::persistent::record(__lo_pq_gc_select, __lo_r1)) {
        if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x))
          launchopt::persistent::wrappedGridFindsQueueFull();
        __lo_inline_gc_detect_conflicts(__lo_r1.args.col_indices, __lo_r1.args.v, __lo_r1.args.edge_begin, __lo_r1.args.edge_end, __lo_r1.args.colors, __lo_r1.args.candidate, __lo_r1.shape.grid, __lo_r1.shape.block); // the queue is full: this thread runs it now
      }
    }
  }
  if (cudaSuccess != cudaSuccess) atomicAdd(&gc_failed_launches, 1u);
}
}

__global__ void __lo_persistent_gc_select(const dim3 __lo_parentGrid, GraphDev g, int first, const int* colors, int* candidate)
{
  launchopt::persistent::runParentBlocks(__lo_parentGrid, [&](uint3 __lo_block) {
    __lo_pblock_gc_select(g, first, colors, candidate, __lo_block, threadIdx, blockDim, __lo_parentGrid);
  });
  launchopt::persistent::runRecorded(__lo_pq_gc_select, launchopt::persistent::ChildGrids,
      [&](const __lo_grec_gc_detect_conflicts &__lo_rec, uint3 __lo_block, uint3 __lo_thread) {
        __lo_ithread_gc_detect_conflicts(__lo_rec.args.col_indices, __lo_rec.args.v, __lo_rec.args.edge_begin, __lo_rec.args.edge_end, __lo_rec.args.colors, __lo_rec.args.candidate, __lo_block, __lo_thread, __lo_rec.shape.block, __lo_rec.shape.grid);
      });
}

__global__ void gc_assign(int n, int round, const int* candidate, int* colors, int* colored) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && colors[v] < 0 && candidate[v]) {
    colors[v] = round;
    atomicAdd(colored, 1);
  }
}

__global__ void gc_init(int n, int* colors) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) colors[v] = -1;
}

}  // namespace

int gc_run(const GraphDev& g, int* d_colors) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(g.num_nodes < kMaxPending ? g.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(gc_failed_launches, &zero, sizeof zero);
  int *candidate = nullptr, *colored = nullptr;
  cudaMalloc(&candidate, sizeof(int) * g.num_nodes);
  cudaMalloc(&colored, sizeof(int));
  cudaMemsetAsync(colored, 0, sizeof(int));
  const int blocks = (g.num_nodes + kParentBlock - 1) / kParentBlock;
  gc_init<<<blocks, kParentBlock>>>(g.num_nodes, d_colors);
  int done = 0, last = -1;
  for (int round = 0; done < g.num_nodes && done != last; ++round) {
    for (int first = 0; first < g.num_nodes; first += kMaxPending) {
      int count = g.num_nodes - first < kMaxPending ? g.num_nodes - first : kMaxPending;
      launchopt::persistent::launch(__lo_persistent_gc_select, gc_select, __lo_pq_gc_select, launchopt::persistent::Always, (count + kParentBlock - 1) / kParentBlock, kParentBlock, 0, 0, g, first, d_colors, candidate); /* launchopt: the persistent grid of 'gc_select' (launch removal) */
    }
    gc_assign<<<blocks, kParentBlock>>>(g.num_nodes, round, candidate, d_colors, colored);
    last = done;
    cudaMemcpy(&done, colored, sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaMemcpyFromSymbol(&failed, gc_failed_launches, sizeof failed);
  cudaFree(candidate);
  cudaFree(colored);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

// launchopt: launches from device code are aggregated; scopes with fewer
// than LAUNCHOPT_AGG_THRESHOLD launches launch them one by one.
// ---- launchopt runtime: launchopt/deferral.cuh ----
// launchopt device runtime: deferred device launches, so that none is dropped.
//
// A device launch that would overflow the pending-launch pool
// (cudaLimitDevRuntimePendingLaunchCount: a launch beyond it is dropped and
// the launching thread reads cudaErrorLaunchPendingCountExceeded), or a
// child that the spawn controller refuses and that cannot run in the parent
// thread, is recorded instead: a copy of the launch (configuration and
// arguments behind a type-erased launcher) goes to the queue of the
// launching grid, and the grid's first record tail-launches the grid's
// drain. A tail launch starts after the grid and everything it launched have
// finished, so the drain finds every record of the grid. The drain launches
// records while the pool has room and tail-launches its successor with the
// rest; the successor starts only once all that the drain launched has
// finished, and gives their pool entries back.
//
// `pending` counts the pool entries this file's runtime may hold: a drain
// from its tail launch until it starts; each launch a drain made, until the
// drain's successor starts; what the other runtime headers add (the spawn
// controller's grids until they end, aggregated grids until they start).
// Launches are made while `pending` stays below the pool's size (read on the
// device: the program may have raised it) minus LAUNCHOPT_PENDING_RESERVE;
// drains may use the reserve. Launches that
// bypass the runtime (sites no pass took, other files) are not counted: a
// deferral that cannot get its drain launched waits, doubling the wait up to
// LAUNCHOPT_DEFER_PATIENCE_NS, and only then is the launch lost; lost
// launches are printed and counted in launchopt::deferral::lost.
//
// Nothing waits without bound. A drain round that launches nothing
// tail-launches its successor to try again, but once the chain has made no
// launch for LAUNCHOPT_DEFER_PATIENCE_NS it is overdue: its rounds launch
// past the runtime's own limits (a count that went wrong, another runtime's
// grids that never end), taking what the pool itself accepts, and an overdue
// round that still launches nothing reports its records lost instead of
// trying again (its pool is then full of launches that cannot start before
// the chain ends).
//
// The spawn controller's children use a second mechanism, a chain of drains
// over one queue (see "Chain of drains" below): in a deep recursion of such
// children, a drain per deferring grid held pool entries for every
// unfinished node of the recursion, and launches were lost.
//
// State is per translation unit, like the other runtime headers. The guard
// (not `#pragma once`) lets an output embed the header for two passes.
#ifndef LAUNCHOPT_DEFERRAL_CUH
#define LAUNCHOPT_DEFERRAL_CUH

#include <cstdio>
#include <cuda_runtime.h>
#include <new>
#include <type_traits>

#ifndef LAUNCHOPT_PENDING_POOL
#define LAUNCHOPT_PENDING_POOL 0 // 0: the device's cudaLimitDevRuntimePendingLaunchCount
#endif
#ifndef LAUNCHOPT_RUNTIME_PENDING_POOL
#define LAUNCHOPT_RUNTIME_PENDING_POOL 2048 // that limit's default
#endif
#ifndef LAUNCHOPT_PENDING_RESERVE
#define LAUNCHOPT_PENDING_RESERVE 512 // pool entries only drains may take
#endif
#ifndef LAUNCHOPT_DEFER_GRIDS
#define LAUNCHOPT_DEFER_GRIDS 4096 // grids with deferred launches at once
#endif
#ifndef LAUNCHOPT_DRAIN_THREADS
#define LAUNCHOPT_DRAIN_THREADS 128 // threads of a chain's drain, each making one launch at a time
#endif
#ifndef LAUNCHOPT_DEFER_PATIENCE_NS
#define LAUNCHOPT_DEFER_PATIENCE_NS 100000000ull // 0.1 s
#endif
#ifndef LAUNCHOPT_DEFER_HEAP
#define LAUNCHOPT_DEFER_HEAP (256ull << 20) // device heap raised to before main (0: left)
#endif

#pragma nv_diag_suppress 177

namespace launchopt {
namespace deferral {

// The pool entries that launches of this runtime hold, and the chain's
// queue (a Deferred *) and whether it runs. Alone, a translation unit has
// its own; the outputs of a program that launchopt transforms as
// one share the count (the runtime's pending-launch pool is the device's):
// the output marked LAUNCHOPT_PROGRAM_DEFERRAL_DEFINITION defines it, the
// others marked LAUNCHOPT_PROGRAM_DEFERRAL declare it.
namespace program {
#ifdef LAUNCHOPT_PROGRAM_DEFERRAL
#ifdef LAUNCHOPT_PROGRAM_DEFERRAL_DEFINITION
__device__ unsigned long long pending;
__device__ unsigned long long chainQueue;
__device__ unsigned chainRunning;
#else
extern __device__ unsigned long long pending;
extern __device__ unsigned long long chainQueue;
extern __device__ unsigned chainRunning;
#endif
#endif
} // namespace program

namespace {

// A recorded launch. `launch` makes it into the given stream and says
// whether it was taken (false: no room yet, or the pool refused it);
// `overdue`: the drain has waited too long, the launch may pass the
// runtime's limits.
struct Deferred {
  Deferred *next;
  bool (*launch)(Deferred *self, cudaStream_t stream, bool overdue);
};

template <typename Launch> struct DeferredLaunch : Deferred {
  Launch body;
  __device__ explicit DeferredLaunch(const Launch &l);
};

// A launch that applies limits of its own takes `overdue` as well.
template <typename Launch>
__device__ bool launchRecord(Deferred *self, cudaStream_t stream, bool overdue) {
  const Launch &body = static_cast<DeferredLaunch<Launch> *>(self)->body;
  if constexpr (std::is_invocable_v<const Launch &, cudaStream_t, bool>)
    return body(stream, overdue);
  else
    return body(stream);
}

template <typename Launch>
__device__ DeferredLaunch<Launch>::DeferredLaunch(const Launch &l)
    : Deferred{nullptr, &launchRecord<Launch>}, body(l) {}

// The records of one grid; `grid` is its %gridid + 1, 0 when free.
struct GridQueue {
  unsigned long long grid;
  Deferred *head;
};

__device__ GridQueue queues[LAUNCHOPT_DEFER_GRIDS];
#ifdef LAUNCHOPT_PROGRAM_DEFERRAL
using program::chainQueue;
using program::chainRunning;
using program::pending;
#else
__device__ unsigned long long pending;
__device__ unsigned long long chainQueue;
__device__ unsigned chainRunning;
#endif
__device__ unsigned long long lost;

// 64-bit atomics have no subtraction: adding the two's complement wraps to it.
__device__ inline void release(unsigned long long entries) { atomicAdd(&pending, 0ull - entries); }

// The pending-launch pool's size: LAUNCHOPT_PENDING_POOL, or else the
// device's limit, which the program may have raised from the host (read at
// each use: the host may change it between kernels).
__device__ inline unsigned long long poolSize() {
  if (LAUNCHOPT_PENDING_POOL != 0)
    return LAUNCHOPT_PENDING_POOL;
  size_t entries = 0;
  if (cudaDeviceGetLimit(&entries, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess ||
      entries <= LAUNCHOPT_PENDING_RESERVE)
    return LAUNCHOPT_RUNTIME_PENDING_POOL;
  return entries;
}

// The pool entries below which launches other than drains are made.
__device__ inline unsigned long long launchLimit() {
  return poolSize() - LAUNCHOPT_PENDING_RESERVE;
}

// One pool entry, when `pending` is below `limit`.
__device__ inline bool takeEntry(unsigned long long limit) {
  if (atomicAdd(&pending, 1ull) < limit)
    return true;
  release(1);
  return false;
}

__device__ inline unsigned long long pendingNow() { return *(volatile unsigned long long *)&pending; }

__device__ inline unsigned long long clockNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ inline unsigned long long gridKey() {
  unsigned long long id;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(id));
  return id + 1;
}

__device__ inline void lose(unsigned long long launches, const char *why) {
  atomicAdd(&lost, launches);
  printf("launchopt: %llu device launch(es) lost: %s\n", launches, why);
}

// Tries `attempt` until it succeeds, waiting twice as long after each
// failure, for at most LAUNCHOPT_DEFER_PATIENCE_NS in all.
template <typename Attempt> __device__ inline bool patiently(Attempt attempt) {
  for (unsigned long long wait = 1000, waited = 0;; waited += wait, wait *= 2) {
    if (attempt())
      return true;
    if (waited >= LAUNCHOPT_DEFER_PATIENCE_NS)
      return false;
    __nanosleep(unsigned(wait < 1000000 ? wait : 1000000));
  }
}

// Why records are lost when no drain can be launched.
__device__ inline const char *noDrain() {
  return "the pending-launch pool stayed full (no drain could be launched)";
}

// Makes `tailLaunch` (a drain's tail launch) holding one pool entry, which
// the drain gives back when it starts; false when there is no room.
template <typename TailLaunch>
__device__ inline bool launchHoldingEntry(const TailLaunch &tailLaunch) {
  if (!takeEntry(poolSize()))
    return false;
  tailLaunch();
  if (cudaGetLastError() == cudaSuccess)
    return true;
  release(1);
  return false;
}

// A drain's chain is overdue once it has launched nothing for
// LAUNCHOPT_DEFER_PATIENCE_NS (`idleSince`: since when; 0: it launched).
__device__ inline bool overdueSince(unsigned long long idleSince) {
  return idleSince != 0 && clockNs() - idleSince >= LAUNCHOPT_DEFER_PATIENCE_NS;
}

// The `idleSince` a drain passes on after making `made` launches. Once
// overdue the chain stays so: a launch now and then must not restart the
// wait, or a count that went wrong would make each record wait anew.
__device__ inline unsigned long long nextIdleSince(bool overdue, unsigned long long made,
                                                   unsigned long long idleSince) {
  return overdue ? idleSince : made != 0 ? 0 : idleSince != 0 ? idleSince : clockNs();
}

__global__ void drain(int queue, Deferred *records, unsigned long long held,
                      unsigned long long idleSince);

// Tail-launches a drain of `queue` (-1: of `records`); `held`: the entries
// the caller's launches hold, which the drain gives back when it starts;
// `idleSince`: when the chain last launched nothing after a launch (0: it
// just launched).
__device__ inline bool launchDrain(int queue, Deferred *records, unsigned long long held,
                                   unsigned long long idleSince = 0) {
  return launchHoldingEntry(
      [&] { drain<<<1, 1, 0, cudaStreamTailLaunch>>>(queue, records, held, idleSince); });
}

__device__ inline unsigned long long count(const Deferred *records) {
  unsigned long long n = 0;
  for (; records; records = records->next)
    ++n;
  return n;
}

// Reports `records` lost and frees them.
__device__ inline void loseAll(Deferred *records, const char *why) {
  if (!records)
    return;
  lose(count(records), why);
  while (records) {
    Deferred *d = records;
    records = d->next;
    free(d);
  }
}

// The drain starts after its grid (or its predecessor) and all their work
// ended: its own entry and the `held` ones are free.
__global__ void drain(int queue, Deferred *records, unsigned long long held,
                      unsigned long long idleSince) {
  release(held + 1);
  if (queue >= 0) {
    GridQueue &q = queues[queue];
    records = reinterpret_cast<Deferred *>(
        atomicExch(reinterpret_cast<unsigned long long *>(&q.head), 0ull));
    atomicExch(&q.grid, 0ull);
  }
  const bool overdue = overdueSince(idleSince);
  unsigned long long made = 0;
  // Overdue, the entries are still counted but no longer refused: the pool
  // answers for itself.
  while (records && takeEntry(overdue ? ~0ull : launchLimit())) {
    Deferred *d = records;
    if (!d->launch(d, cudaStreamFireAndForget, overdue)) {
      release(1);
      break;
    }
    ++made;
    records = d->next;
    free(d);
  }
  if (!records && made == 0)
    return;
  if (overdue && made == 0) {
    loseAll(records, "no deferred launch was taken for LAUNCHOPT_DEFER_PATIENCE_NS, "
                     "the runtime's limits passed (the pending-launch pool stayed full)");
    return;
  }
  const unsigned long long idle = nextIdleSince(overdue, made, idleSince);
  // Nothing could be launched: wait a little before the next round polls.
  if (made == 0)
    __nanosleep(10000);
  if (!patiently([&] { return launchDrain(-1, records, made, idle); })) {
    // No successor will start to give the entries back: give them now.
    release(made);
    loseAll(records, noDrain());
  }
}

// The calling grid's queue, claimed by its first record (`first`: the
// caller launches the drain); -1 when every queue is taken.
__device__ inline int queueOfThisGrid(bool &first) {
  unsigned long long grid = gridKey();
  unsigned start = unsigned((grid * 0x9E3779B97F4A7C15ull) >> 40) % LAUNCHOPT_DEFER_GRIDS;
  for (unsigned i = 0; i < LAUNCHOPT_DEFER_GRIDS; ++i) {
    unsigned q = (start + i) % LAUNCHOPT_DEFER_GRIDS;
    unsigned long long was = atomicCAS(&queues[q].grid, 0ull, grid);
    if (was == 0ull || was == grid) {
      first = was == 0ull;
      return int(q);
    }
  }
  return -1;
}

// Records `launch` (a copyable callable: bool(cudaStream_t), which makes the
// launch and says whether it was taken) to be launched after this grid.
template <typename Launch> __device__ inline void defer(const Launch &launch) {
  void *memory = malloc(sizeof(DeferredLaunch<Launch>));
  if (!memory) {
    lose(1, "the device heap has no room for the record (cudaLimitMallocHeapSize)");
    return;
  }
  Deferred *d = new (memory) DeferredLaunch<Launch>(launch);
  bool first = false;
  int q = queueOfThisGrid(first);
  if (q < 0) {
    free(memory);
    lose(1, "more grids defer launches at once than LAUNCHOPT_DEFER_GRIDS");
    return;
  }
  if (first && !patiently([&] { return launchDrain(q, nullptr, 0); })) {
    // The records the grid's other threads added meanwhile have no drain
    // either: report them with this one (not leave them to a later grid's
    // drain), and free the queue: the grid's next record tries anew.
    Deferred *others = reinterpret_cast<Deferred *>(
        atomicExch(reinterpret_cast<unsigned long long *>(&queues[q].head), 0ull));
    atomicExch(&queues[q].grid, 0ull);
    d->next = others;
    loseAll(d, noDrain());
    return;
  }
  unsigned long long *head = reinterpret_cast<unsigned long long *>(&queues[q].head);
  unsigned long long seen = *(volatile unsigned long long *)head, was;
  do {
    d->next = reinterpret_cast<Deferred *>(seen);
    was = seen;
    seen = atomicCAS(head, was, reinterpret_cast<unsigned long long>(d));
  } while (seen != was);
}

// ---- Chain of drains ----
//
// A record of the spawn controller goes to one queue, and one chain of
// drains launches the queue's records. The deferral that finds no chain
// running starts one: it tail-launches a drain, which starts after the
// deferring grid and all its work ended. A drain is one block; its threads
// launch records at once while the pool has room, put back what they could
// not launch, and tail-launch the successor, which starts only once
// everything the drain launched has ended: it gives their pool entries back
// and finds the records that work deferred in turn. A drain that finds the
// queue empty and launched nothing ends the chain. Records may be launched
// before the grid that deferred them ends, which a spawned child allows (it
// would have run beside its parent), but not a launch that other launches
// count on to follow its grid (aggregation's tail launches): those use the
// drain of their grid above. The patience and the overdue rounds are as for
// those drains.

// Puts the list `first` … `last` in front of the queue. The writes made
// before (the records, and what the deferring thread's block wrote for the
// child) are visible to whoever takes the list.
__device__ inline void pushList(Deferred *first, Deferred *last) {
  __threadfence();
  unsigned long long seen = *(volatile unsigned long long *)&chainQueue, was;
  do {
    last->next = reinterpret_cast<Deferred *>(seen);
    was = seen;
    seen = atomicCAS(&chainQueue, was, reinterpret_cast<unsigned long long>(first));
  } while (seen != was);
}

__device__ inline Deferred *takeQueue() {
  Deferred *all = reinterpret_cast<Deferred *>(atomicExch(&chainQueue, 0ull));
  __threadfence();
  return all;
}

__device__ inline bool queueEmpty() { return *(volatile unsigned long long *)&chainQueue == 0ull; }

__global__ void chainDrain(unsigned long long held, unsigned long long idleSince);

// Tail-launches a drain; `held`: the entries the caller's launches hold,
// which the drain gives back when it starts; `idleSince`: when the chain
// last launched nothing after a launch (0: it just launched).
__device__ inline bool launchChainDrain(unsigned long long held, unsigned long long idleSince) {
  return launchHoldingEntry([&] {
    chainDrain<<<1, LAUNCHOPT_DRAIN_THREADS, 0, cudaStreamTailLaunch>>>(held, idleSince);
  });
}

// Ends the calling chain, or goes on with it when records came meanwhile:
// a deferral that saw the chain running before it stopped counts on it.
// Called by one thread.
__device__ inline void endChain() {
  for (;;) {
    atomicExch(&chainRunning, 0u);
    __threadfence();
    if (queueEmpty() || atomicCAS(&chainRunning, 0u, 1u) != 0u)
      return;
    if (patiently([] { return launchChainDrain(0, 0); }))
      return;
    loseAll(takeQueue(), noDrain());
  }
}

// Starts a chain unless one runs. Called after a record was queued.
__device__ inline void startChain() {
  if (atomicCAS(&chainRunning, 0u, 1u) != 0u)
    return;
  if (patiently([] { return launchChainDrain(0, 0); }))
    return;
  loseAll(takeQueue(), noDrain());
  endChain();
}

// A drain round. It starts after its predecessor (or the grid that started
// the chain) and all their work ended: its own entry and the `held` ones are
// free. Its threads take records from the list in turns of one each.
__global__ void chainDrain(unsigned long long held, unsigned long long idleSince) {
  __shared__ Deferred *turn[LAUNCHOPT_DRAIN_THREADS];
  __shared__ Deferred *untried, *refused, *refusedLast;
  __shared__ unsigned long long made;
  __shared__ int full;
  const unsigned me = threadIdx.x;
  const bool overdue = overdueSince(idleSince);
  if (me == 0) {
    release(held + 1);
    untried = takeQueue();
    refused = refusedLast = nullptr;
    made = 0;
    full = 0;
  }
  __syncthreads();
  // Overdue, the entries are still counted but no longer refused: the pool
  // answers for itself.
  const unsigned long long limit = overdue ? ~0ull : launchLimit();
  for (;;) {
    if (me == 0)
      for (unsigned i = 0; i < LAUNCHOPT_DRAIN_THREADS; ++i) {
        turn[i] = untried;
        if (untried)
          untried = untried->next;
      }
    __syncthreads();
    if (!turn[0])
      break;
    Deferred *d = turn[me];
    if (d && takeEntry(limit)) {
      if (d->launch(d, cudaStreamFireAndForget, overdue)) {
        atomicAdd(&made, 1ull);
        free(d);
        turn[me] = nullptr;
      } else {
        release(1);
      }
    }
    if (turn[me])
      full = 1;
    __syncthreads();
    if (me == 0)
      for (unsigned i = 0; i < LAUNCHOPT_DRAIN_THREADS; ++i)
        if (turn[i]) {
          turn[i]->next = refused;
          refused = turn[i];
          if (!refusedLast)
            refusedLast = refused;
        }
    __syncthreads();
    if (full)
      break;
  }
  if (me != 0)
    return;
  // What is left: the refused records, then those not tried.
  Deferred *left = untried;
  if (refused) {
    refusedLast->next = untried;
    left = refused;
  }
  if (!left && made == 0) {
    endChain();
    return;
  }
  if (overdue && made == 0) {
    loseAll(left, "no deferred launch was taken for LAUNCHOPT_DEFER_PATIENCE_NS, "
                  "the runtime's limits passed (the pending-launch pool stayed full)");
    endChain();
    return;
  }
  if (left) {
    Deferred *last = left;
    while (last->next)
      last = last->next;
    pushList(left, last);
  }
  const unsigned long long idle = nextIdleSince(overdue, made, idleSince);
  // Nothing could be launched: wait a little before the next round polls.
  if (made == 0)
    __nanosleep(10000);
  if (!patiently([&] { return launchChainDrain(made, idle); })) {
    // No successor will start to give the entries back: give them now.
    release(made);
    loseAll(takeQueue(), noDrain());
    endChain();
  }
}

// Records `launch` (a copyable callable, as for defer) to be launched by the
// chain of drains, maybe before this grid ends.
template <typename Launch> __device__ inline void deferToChain(const Launch &launch) {
  void *memory = malloc(sizeof(DeferredLaunch<Launch>));
  if (!memory) {
    lose(1, "the device heap has no room for the record (cudaLimitMallocHeapSize)");
    return;
  }
  Deferred *d = new (memory) DeferredLaunch<Launch>(launch);
  pushList(d, d);
  __threadfence();
  startChain();
}

// A launch that must not be dropped: made now while the pool has room (it
// then holds no entry: `launch` reports its own ends where it can), else,
// or when the pool refuses it, deferred. A thread with an unread launch
// error defers, since the check after the launch could not tell the errors
// apart. The launch is made into `stream`; a deferred one into
// cudaStreamFireAndForget (named streams belong to the grid that made them).
template <typename Launch>
__device__ inline void launchOrDefer(const Launch &launch, cudaStream_t stream) {
  if (cudaPeekAtLastError() == cudaSuccess &&
      pendingNow() < launchLimit() && launch(stream))
    return;
  defer(launch);
}

// A launch that must keep its place among the launching thread's launches
// into its block's NULL stream (ordered aggregation): `launch(stream)` makes
// it and returns the launch's error. It is never deferred, since a drain
// runs after launches the thread makes later. When the pending-launch pool
// refuses it, it is tried again, patiently: launches pending in streams of
// this or other blocks start without waiting for this thread. Should the
// pool stay full (of tail launches, which wait for this grid), it is lost,
// printed and counted like a deferral's. Any other error is the launch's
// own, which the launch as written had too.
template <typename Launch> __device__ inline void launchInOrder(const Launch &launch) {
  cudaError_t error = cudaSuccess;
  bool ended = patiently([&] {
    error = launch(cudaStream_t(0));
    return error != cudaErrorLaunchPendingCountExceeded;
  });
  if (!ended)
    lose(1, "the pending-launch pool stayed full for a launch that must keep its order");
}

} // namespace

// Records live in the device heap, whose default 8 MiB holds some 30,000 of
// them: fewer than a deep recursion defers (qt on 1M points). The heap can
// only grow before the first kernel that allocates runs, so the host raises
// it to LAUNCHOPT_DEFER_HEAP bytes before main, as the serial copies' stack.
#ifndef __CUDA_ARCH__
namespace {
struct HeapForRecords {
  HeapForRecords() {
    size_t bytes = 0;
    if (LAUNCHOPT_DEFER_HEAP > 0 &&
        cudaDeviceGetLimit(&bytes, cudaLimitMallocHeapSize) == cudaSuccess &&
        bytes < (size_t)(LAUNCHOPT_DEFER_HEAP))
      cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)(LAUNCHOPT_DEFER_HEAP));
    (void)cudaGetLastError();
  }
} heapForRecords;
} // namespace
#endif
} // namespace deferral
} // namespace launchopt

#endif
// ---- end of launchopt/deferral.cuh ----
// ---- launchopt runtime: launchopt/aggregation.cuh ----
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
// ---- end of launchopt/aggregation.cuh ----
// ---- launchopt runtime: launchopt/host_aggregation.cuh ----
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
// ---- end of launchopt/host_aggregation.cuh ----
#ifndef LAUNCHOPT_AGG_THRESHOLD
#define LAUNCHOPT_AGG_THRESHOLD 2
#endif
#ifndef LAUNCHOPT_MAX_GROUPS
#define LAUNCHOPT_MAX_GROUPS 65536
#endif

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
// launchopt: each block of a coarsened child runs LAUNCHOPT_CFACTOR
// original blocks. Override with -DLAUNCHOPT_CFACTOR=<blocks>.
#ifndef LAUNCHOPT_CFACTOR
#define LAUNCHOPT_CFACTOR 8
#endif

// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// (the report's serial-pooling says where the lanes of a warp share their
// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 128
#endif

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

// launchopt: one original block of 'gc_detect_conflicts' inside a coarsened block; the locals
// below shadow the built-in index variables with the original block's values.
static __device__ void __lo_block_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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

// launchopt: 'gc_detect_conflicts' coarsened: each block runs the original blocks
// blockIdx, blockIdx + gridDim, ... of the original grid.
// launchopt: the arguments of '__lo_coarse_gc_detect_conflicts' that are the same at every launch of a scope,
// kept once per scope next to its records.
struct __lo_uargs___lo_coarse_gc_detect_conflicts {
  const int* col_indices;
  const int* colors;
  int* candidate;
  __device__ __lo_uargs___lo_coarse_gc_detect_conflicts(const int* col_indices, const int* colors, int* candidate)
      : col_indices(col_indices), colors(colors), candidate(candidate) {}
};

// launchopt: the arguments of one launch of '__lo_coarse_gc_detect_conflicts', kept in the pool until its
// aggregated grid runs.
struct __lo_args___lo_coarse_gc_detect_conflicts {
  int v;
  int edge_begin;
  int edge_end;
  const dim3 __lo_originalGrid;
  __device__ __lo_args___lo_coarse_gc_detect_conflicts(int v, int edge_begin, int edge_end, const dim3 __lo_originalGrid)
      : v(v), edge_begin(edge_begin), edge_end(edge_end), __lo_originalGrid(__lo_originalGrid) {}
};

// launchopt: the body of '__lo_coarse_gc_detect_conflicts' for one thread whose built-in index variables are
// passed in (they differ from the real ones inside an aggregated grid).
static __device__ void __lo_part___lo_coarse_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const dim3 __lo_originalGrid, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
    for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
      for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x)
        __lo_block_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz), threadIdx,
            blockDim, __lo_originalGrid);
}
}

__global__ void __lo_coarse_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const dim3 __lo_originalGrid)
{
  for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
    for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
      for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x)
        __lo_block_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz), threadIdx,
            blockDim, __lo_originalGrid);
}

// launchopt: one thread of '__lo_coarse_gc_detect_conflicts', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_hthread___lo_coarse_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const dim3 __lo_originalGrid, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  for (unsigned __lo_bz = blockIdx.z; __lo_bz < __lo_originalGrid.z; __lo_bz += gridDim.z)
    for (unsigned __lo_by = blockIdx.y; __lo_by < __lo_originalGrid.y; __lo_by += gridDim.y)
      for (unsigned __lo_bx = blockIdx.x; __lo_bx < __lo_originalGrid.x; __lo_bx += gridDim.x)
        __lo_block_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz), threadIdx,
            blockDim, __lo_originalGrid);
}
}

// launchopt: every thread of a '__lo_coarse_gc_detect_conflicts' grid, one after another (serial version).
static __device__ void __lo_hserial___lo_coarse_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const dim3 __lo_originalGrid, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  if (launchopt::packing::runTogether(__lo_gridDim, __lo_blockDim,
          [=](const uint3 __lo_b, const uint3 __lo_t, const dim3 __lo_bd, const dim3 __lo_gd) {
            __lo_hthread___lo_coarse_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, __lo_originalGrid, __lo_b, __lo_t, __lo_bd, __lo_gd);
          },
          nullptr, 0u))
    return;
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by)
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx)
              __lo_hthread___lo_coarse_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, __lo_originalGrid, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
}

// launchopt: '__lo_coarse_gc_detect_conflicts' aggregated and launched by the host after its parent: the blocks
// of a grid of any size stride over the recorded child blocks; each finds
// the launch it belongs to and runs as that launch's original block.
__global__ void __lo_hagg___lo_coarse_gc_detect_conflicts(const launchopt::HostAggregation *__lo_host)
{
  launchopt::HostRecords __lo_h;
  if (!launchopt::hostRecords(__lo_host, &__lo_h))
    return;
  for (unsigned long long __lo_unit = blockIdx.x; __lo_unit < __lo_h.units; __lo_unit += gridDim.x) {
    launchopt::OriginalThread __lo_t;
    if (launchopt::findHostOriginal(__lo_h, unsigned(__lo_unit), &__lo_t)) {
      const __lo_args___lo_coarse_gc_detect_conflicts &__lo_a = *static_cast<const __lo_args___lo_coarse_gc_detect_conflicts *>(__lo_t.arguments);
      const __lo_uargs___lo_coarse_gc_detect_conflicts &__lo_u = *static_cast<const __lo_uargs___lo_coarse_gc_detect_conflicts *>(__lo_t.uniformArguments);
      __lo_part___lo_coarse_gc_detect_conflicts(__lo_u.col_indices, __lo_a.v, __lo_a.edge_begin, __lo_a.edge_end, __lo_u.colors, __lo_u.candidate, __lo_a.__lo_originalGrid, __lo_t.blockIdx, __lo_t.threadIdx,
          __lo_t.blockDim, __lo_t.gridDim);
    }
    __syncthreads();
  }
}

// launchopt: '__lo_coarse_gc_detect_conflicts' aggregated: each block finds the launch it belongs to and runs
// as that launch's original block (disaggregation).
__global__ void __lo_agg___lo_coarse_gc_detect_conflicts(const launchopt::AggregatedLaunch *__lo_launch)
{
  launchopt::OriginalThread __lo_t;
  if (!launchopt::findOriginal(__lo_launch, &__lo_t))
    return;
  const __lo_args___lo_coarse_gc_detect_conflicts &__lo_a = *static_cast<const __lo_args___lo_coarse_gc_detect_conflicts *>(__lo_t.arguments);
  const __lo_uargs___lo_coarse_gc_detect_conflicts &__lo_u = *static_cast<const __lo_uargs___lo_coarse_gc_detect_conflicts *>(__lo_t.uniformArguments);
  __lo_part___lo_coarse_gc_detect_conflicts(__lo_u.col_indices, __lo_a.v, __lo_a.edge_begin, __lo_a.edge_end, __lo_u.colors, __lo_u.candidate, __lo_a.__lo_originalGrid, __lo_t.blockIdx, __lo_t.threadIdx,
      __lo_t.blockDim, __lo_t.gridDim);
}

// launchopt: launches the records of a finished scope: one aggregated grid,
// or one by one when there are fewer than LAUNCHOPT_AGG_THRESHOLD.
static __device__ void __lo_launch___lo_coarse_gc_detect_conflicts(launchopt::AggregationScope *__lo_scope, cudaStream_t __lo_stream,
    bool __lo_allowDirect)
{
  launchopt::ScopeSummary __lo_s;
  if (!launchopt::summarize(__lo_scope, &__lo_s))
    return;
  if (__lo_allowDirect && __lo_s.count < LAUNCHOPT_AGG_THRESHOLD) {
    for (unsigned __lo_i = 0; __lo_i < __lo_s.count; ++__lo_i) {
      const launchopt::ChildRecord &__lo_r = __lo_s.launch->records[__lo_i];
      const __lo_args___lo_coarse_gc_detect_conflicts &__lo_a = *static_cast<const __lo_args___lo_coarse_gc_detect_conflicts *>(__lo_r.arguments);
      const __lo_uargs___lo_coarse_gc_detect_conflicts &__lo_u = *static_cast<const __lo_uargs___lo_coarse_gc_detect_conflicts *>(__lo_s.launch->uniformArguments);
      launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_st) {
        __lo_coarse_gc_detect_conflicts<<<__lo_r.grid, __lo_r.block, __lo_r.sharedMemory, __lo_st>>>(__lo_u.col_indices, __lo_a.v, __lo_a.edge_begin, __lo_a.edge_end, __lo_u.colors, __lo_u.candidate, __lo_a.__lo_originalGrid);
        return cudaGetLastError() == cudaSuccess;
      }, cudaStreamFireAndForget);
    }
    return;
  }
  const launchopt::ScopeSummary __lo_summary = __lo_s;
  launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_st) {
    const launchopt::ScopeSummary &__lo_s = __lo_summary;
    __lo_agg___lo_coarse_gc_detect_conflicts<<<__lo_s.blocks, __lo_s.maxThreads, __lo_s.maxSharedMemory, __lo_st>>>(__lo_s.launch);
    return cudaGetLastError() == cudaSuccess;
  }, __lo_stream);
}

// launchopt: one thread of 'gc_detect_conflicts', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_thread_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ bool __lo_thread_exit_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ void __lo_serial_gc_detect_conflicts(const int* col_indices, int v, int edge_begin, int edge_end, const int* colors, int* candidate, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_gc_detect_conflicts(col_indices, v, edge_begin, edge_end, colors, candidate, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

// launchopt: the scope of the launches of '__lo_coarse_gc_detect_conflicts' here, whose aggregated grid
// the host launches after this kernel.
static __device__ launchopt::HostAggregation __lo_host_gc_select_1;

// launchopt: aggregation scopes of the groups of parent blocks.
static __device__ __attribute__((unused)) launchopt::AggregationScope __lo_groups_gc_select_1[LAUNCHOPT_MAX_GROUPS];

static __device__ void __lo_launch___lo_coarse_gc_detect_conflicts(launchopt::AggregationScope *__lo_scope, cudaStream_t __lo_stream,
    bool __lo_allowDirect);

// launchopt: the body of 'gc_select' for one thread whose built-in index variables are
// passed in (they differ from the real ones inside an aggregated grid).
static __device__ __forceinline__ void __lo_part_gc_select(GraphDev g, int first, const int* colors, int* candidate, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim, launchopt::AggregationScope *__lo_agg1, const bool __lo_hosted)
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
  { // launchopt: thresholded launch of 'gc_detect_conflicts'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      { // launchopt: coarsened launch of 'gc_detect_conflicts'
        const dim3 __lo_cgrid1 = __lo_grid1;
        const dim3 __lo_coarse1((__lo_cgrid1.x + LAUNCHOPT_CFACTOR - 1) / LAUNCHOPT_CFACTOR, __lo_cgrid1.y, __lo_cgrid1.z);
        { // launchopt: aggregated launch of '__lo_coarse_gc_detect_conflicts'
          const dim3 __lo_agrid1 = __lo_coarse1;
          const dim3 __lo_ablock1 = __lo_block1;
          void *__lo_uniform1;
          void *__lo_record1 = launchopt::reserveRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args___lo_coarse_gc_detect_conflicts), &__lo_uniform1);
          if (__lo_record1) {
            ::new (__lo_record1) __lo_args___lo_coarse_gc_detect_conflicts(v, begin, end, __lo_cgrid1);
            if (__lo_uniform1) // first record of the scope: the arguments all share
              ::new (__lo_uniform1) __lo_uargs___lo_coarse_gc_detect_conflicts(g.col_indices, colors, candidate);
          } else if (__lo_hosted) // pool or scope full: run it here
          {
            __lo_hserial___lo_coarse_gc_detect_conflicts(g.col_indices, v, begin, end,
                                                                                       colors, candidate, __lo_cgrid1, __lo_agrid1, __lo_ablock1);
          }
          else // the parent as written: launch now, or defer
          {
            auto __lo_darg1_0 = g.col_indices;
            auto __lo_darg1_1 = v;
            auto __lo_darg1_2 = begin;
            auto __lo_darg1_3 = end;
            auto __lo_darg1_4 = colors;
            auto __lo_darg1_5 = candidate;
            auto __lo_darg1_6 = __lo_cgrid1;
            const size_t __lo_dshared1 = 0;
            launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
              __lo_coarse_gc_detect_conflicts<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(__lo_darg1_0, __lo_darg1_1, __lo_darg1_2, __lo_darg1_3, __lo_darg1_4, __lo_darg1_5, __lo_darg1_6);
              return cudaGetLastError() == cudaSuccess;
            }, 0);
          }
        }
      }
    else
      __lo_serial_gc_detect_conflicts(g.col_indices, v, begin, end,
                                                                                       colors, candidate, __lo_grid1, __lo_block1);
  }
  if ((__lo_hosted ? cudaSuccess : cudaGetLastError()) != cudaSuccess) atomicAdd(&gc_failed_launches, 1u);
}
}

__global__ void gc_select(GraphDev g, int first, const int* colors, int* candidate) {
  // launchopt: the grids the host does not aggregate (__lo_hparent_gc_select
  // records the others' launches): multi-block scopes, their grids launched from the device.
  const unsigned __lo_thread = launchopt::linearThread();
  const unsigned __lo_blockThreads = blockDim.x * blockDim.y * blockDim.z;
  (void)__lo_blockThreads;
  const unsigned __lo_agg1_span = launchopt::groupSpan(8u);
  const unsigned __lo_agg1_group = launchopt::linearBlock() / __lo_agg1_span;
  launchopt::AggregationScope *__lo_agg1 = __lo_agg1_group < LAUNCHOPT_MAX_GROUPS ? &__lo_groups_gc_select_1[__lo_agg1_group] : nullptr;
  if (__lo_thread == 0 && __lo_agg1)
    launchopt::openGroupScope(__lo_agg1, (unsigned long long)min(__lo_agg1_span, launchopt::blocksPerGrid() - __lo_agg1_group * __lo_agg1_span) * __lo_blockThreads, sizeof(__lo_uargs___lo_coarse_gc_detect_conflicts));
  __syncthreads();
  __lo_part_gc_select(g, first, colors, candidate, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1, false);
  __syncthreads();
  if (__lo_thread == 0 && __lo_agg1 && launchopt::lastBlockOfScope(__lo_agg1, min(__lo_agg1_span, launchopt::blocksPerGrid() - __lo_agg1_group * __lo_agg1_span))) {
    __lo_launch___lo_coarse_gc_detect_conflicts(__lo_agg1, cudaStreamFireAndForget, false);
    launchopt::clearScope(__lo_agg1);
  }
}

// launchopt: 'gc_select' as the host launches it for a grid whose children it
// aggregates: its launches are recorded in the scopes the host armed.
__global__ void __lo_hparent_gc_select(GraphDev g, int first, const int* colors, int* candidate)
{
  const unsigned __lo_thread = launchopt::linearThread();
  const unsigned __lo_blockThreads = blockDim.x * blockDim.y * blockDim.z;
  (void)__lo_blockThreads;
  launchopt::AggregationScope *__lo_agg1 = &__lo_host_gc_select_1.scope;
  if (__lo_thread == 0 && launchopt::linearBlock() == 0)
    launchopt::expectHostLaunch(&__lo_host_gc_select_1, "gc_select");
  __lo_part_gc_select(g, first, colors, candidate, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1, true);
}

// launchopt: run by the host before each launch of 'gc_select', in its stream: publishes and
// resets the record pool, and opens and arms the scopes of its aggregated
// launches for the grid about to start.
static __global__ void __lo_arm_gc_select(launchopt::PoolView __lo_pool, dim3 __lo_grid, dim3 __lo_block)
{
  launchopt::publishPool(__lo_pool);
  launchopt::armHostAggregation(&__lo_host_gc_select_1, launchopt::hostLaunchers(__lo_grid, __lo_block, false), sizeof(__lo_uargs___lo_coarse_gc_detect_conflicts));
}

// launchopt: called by the host after each launch of 'gc_select', with its stream: launches
// the aggregated grids of its children (host_aggregation.cuh says how they are sized).
static void __lo_hostlaunch_gc_select(cudaStream_t __lo_stream)
{
  launchopt::launchHostAggregated(__lo_hagg___lo_coarse_gc_detect_conflicts, __lo_host_gc_select_1, 32u, 0u, false, __lo_stream);
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
      { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = (count + kParentBlock - 1) / kParentBlock, __lo_hblock = kParentBlock; if (launchopt::hostAggregates(__lo_hgrid, __lo_hblock)) { __lo_arm_gc_select<<<1, 1, 0, __lo_hstream>>>(launchopt::preparePool(__lo_hgrid, __lo_hblock, {1, 32, 0, 0, 1}), __lo_hgrid, __lo_hblock); __lo_hparent_gc_select<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(g, first, d_colors, candidate); __lo_hostlaunch_gc_select(__lo_hstream); } else { launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 32, 0, 0, 1}); gc_select<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(g, first, d_colors, candidate); } }
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

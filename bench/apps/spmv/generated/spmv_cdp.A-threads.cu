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
// ---- launchopt runtime: launchopt/thread_aggregation.cuh ----
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
// ---- end of launchopt/thread_aggregation.cuh ----
#ifndef LAUNCHOPT_AGG_THRESHOLD
#define LAUNCHOPT_AGG_THRESHOLD 2
#endif
#ifndef LAUNCHOPT_MAX_GROUPS
#define LAUNCHOPT_MAX_GROUPS 65536
#endif

// ---- launchopt runtime: launchopt/accumulate.cuh ----
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
// ---- end of launchopt/accumulate.cuh ----
// SpMV (CSR), naive CUDA dynamic parallelism: one parent thread per row
// launches a child grid with one thread per non-zero of the row; each child
// thread adds its product into y[row] atomically.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
// On the H100 the pool stopped accepting launches near 550k pending children
// even with a larger limit set, so a parent grid covers at most kMaxPending
// items and the host issues several when the work list is longer.
constexpr int kMaxPending = 1 << 18;

__device__ unsigned int spmv_failed_launches;

// launchopt: the arguments of 'spmv_row_products' that are the same at every launch of a scope,
// kept once per scope next to its records.
struct __lo_uargs_spmv_row_products {
  const int* col_indices;
  const float* values;
  const float* x;
  __device__ __lo_uargs_spmv_row_products(const int* col_indices, const float* values, const float* x)
      : col_indices(col_indices), values(values), x(x) {}
};

// launchopt: the arguments of one launch of 'spmv_row_products', kept in the pool until its
// aggregated grid runs.
struct __lo_args_spmv_row_products {
  int edge_begin;
  int edge_end;
  float* y_row;
  __device__ __lo_args_spmv_row_products(int edge_begin, int edge_end, float* y_row)
      : edge_begin(edge_begin), edge_end(edge_end), y_row(y_row) {}
};

// launchopt: the body of 'spmv_row_products' for one thread whose built-in index variables are
// passed in (they differ from the real ones inside an aggregated grid).
static __device__ void __lo_part_spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin, int edge_end, float* y_row, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edge_end) launchopt::accumulate::applyInWarp<launchopt::accumulate::Add<launchopt::accumulate::Scope::Device>>(y_row, values[e] * x[col_indices[e]]);
}
}

__global__ void spmv_row_products(const int* col_indices, const float* values, const float* x, int edge_begin,
                                  int edge_end, float* y_row) {
  int e = edge_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edge_end) atomicAdd(y_row, values[e] * x[col_indices[e]]);
}

// launchopt: 'spmv_row_products' aggregated thread by thread: the threads of the scope's launches
// are packed densely; each finds the launch it belongs to and its place in it.
__global__ void __lo_agg_spmv_row_products(const launchopt::AggregatedLaunch *__lo_launch)
{
  launchopt::OriginalThread __lo_t;
  if (!launchopt::findPackedOriginal(__lo_launch, &__lo_t))
    return;
  const __lo_args_spmv_row_products &__lo_a = *static_cast<const __lo_args_spmv_row_products *>(__lo_t.arguments);
  const __lo_uargs_spmv_row_products &__lo_u = *static_cast<const __lo_uargs_spmv_row_products *>(__lo_t.uniformArguments);
  __lo_part_spmv_row_products(__lo_u.col_indices, __lo_u.values, __lo_u.x, __lo_a.edge_begin, __lo_a.edge_end, __lo_a.y_row, __lo_t.blockIdx, __lo_t.threadIdx,
      __lo_t.blockDim, __lo_t.gridDim);
}

// launchopt: launches the records of a finished scope: one aggregated grid,
// or one by one when there are fewer than LAUNCHOPT_AGG_THRESHOLD.
static __device__ void __lo_launch_spmv_row_products(launchopt::AggregationScope *__lo_scope, cudaStream_t __lo_stream,
    bool __lo_allowDirect)
{
  launchopt::ScopeSummary __lo_s;
  if (!launchopt::summarizePacked(__lo_scope, &__lo_s))
    return;
  if (__lo_allowDirect && __lo_s.count < LAUNCHOPT_AGG_THRESHOLD) {
    for (unsigned __lo_i = 0; __lo_i < __lo_s.count; ++__lo_i) {
      const launchopt::PackedRecord &__lo_r =
          launchopt::packedRecords(__lo_s.launch)[__lo_i];
      const __lo_args_spmv_row_products &__lo_a = *static_cast<const __lo_args_spmv_row_products *>(__lo_r.arguments);
      const __lo_uargs_spmv_row_products &__lo_u = *static_cast<const __lo_uargs_spmv_row_products *>(__lo_s.launch->uniformArguments);
      launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_st) {
        spmv_row_products<<<__lo_r.grid, __lo_r.block, __lo_r.sharedMemory, __lo_st>>>(__lo_u.col_indices, __lo_u.values, __lo_u.x, __lo_a.edge_begin, __lo_a.edge_end, __lo_a.y_row);
        return cudaGetLastError() == cudaSuccess;
      }, cudaStreamFireAndForget);
    }
    return;
  }
  const launchopt::ScopeSummary __lo_summary = __lo_s;
  launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_st) {
    const launchopt::ScopeSummary &__lo_s = __lo_summary;
    __lo_agg_spmv_row_products<<<__lo_s.blocks, LAUNCHOPT_PACKED_BLOCK, 0, __lo_st>>>(__lo_s.launch);
    return cudaGetLastError() == cudaSuccess;
  }, __lo_stream);
}

// launchopt: aggregation scopes of the groups of parent blocks.
static __device__ __attribute__((unused)) launchopt::AggregationScope __lo_groups_spmv_rows_1[LAUNCHOPT_MAX_GROUPS];

static __device__ void __lo_launch_spmv_row_products(launchopt::AggregationScope *__lo_scope, cudaStream_t __lo_stream,
    bool __lo_allowDirect);

// launchopt: the body of 'spmv_rows' for one thread whose built-in index variables are
// passed in (they differ from the real ones inside an aggregated grid).
static __device__ void __lo_part_spmv_rows(GraphDev a, int first_row, const float* x, float* y, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim, launchopt::AggregationScope *__lo_agg1)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int r = first_row + blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= a.num_nodes) return;
  int begin = a.row_offsets[r], end = a.row_offsets[r + 1];
  y[r] = 0.0f;
  if (end == begin) return;
  { // launchopt: aggregated launch of 'spmv_row_products'
    const dim3 __lo_agrid1 = (end - begin + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_ablock1 = kChildBlock;
    void *__lo_uniform1;
    void *__lo_record1 = launchopt::reservePackedRecord(__lo_agg1, __lo_agrid1, __lo_ablock1, 0, sizeof(__lo_args_spmv_row_products), &__lo_uniform1);
    if (__lo_record1) {
      ::new (__lo_record1) __lo_args_spmv_row_products(begin, end, &y[r]);
      if (__lo_uniform1) // first record of the scope: the arguments all share
        ::new (__lo_uniform1) __lo_uargs_spmv_row_products(a.col_indices, a.values, x);
    } else // pool or scope full: launch now, or defer
    {
      auto __lo_darg1_0 = a.col_indices;
      auto __lo_darg1_1 = a.values;
      auto __lo_darg1_2 = x;
      auto __lo_darg1_3 = begin;
      auto __lo_darg1_4 = end;
      auto __lo_darg1_5 = &y[r];
      const size_t __lo_dshared1 = 0;
      launchopt::deferral::launchOrDefer([=](cudaStream_t __lo_stream) {
        spmv_row_products<<<__lo_agrid1, __lo_ablock1, __lo_dshared1, __lo_stream>>>(__lo_darg1_0, __lo_darg1_1, __lo_darg1_2, __lo_darg1_3, __lo_darg1_4, __lo_darg1_5);
        return cudaGetLastError() == cudaSuccess;
      }, 0);
    }
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&spmv_failed_launches, 1u);
}
}

__global__ void spmv_rows(GraphDev a, int first_row, const float* x, float* y) {
  // launchopt: this kernel's launches are aggregated (grid granularity).
  const unsigned __lo_thread = launchopt::linearThread();
  const unsigned __lo_blockThreads = blockDim.x * blockDim.y * blockDim.z;
  (void)__lo_blockThreads;
  const unsigned __lo_agg1_group = launchopt::linearBlock() / launchopt::blocksPerGrid();
  launchopt::AggregationScope *__lo_agg1 = __lo_agg1_group < LAUNCHOPT_MAX_GROUPS ? &__lo_groups_spmv_rows_1[__lo_agg1_group] : nullptr;
  if (__lo_thread == 0 && __lo_agg1)
    launchopt::openGroupScope(__lo_agg1, (unsigned long long)launchopt::blocksPerGrid() * __lo_blockThreads, sizeof(__lo_uargs_spmv_row_products));
  __syncthreads();
  __lo_part_spmv_rows(a, first_row, x, y, blockIdx, threadIdx, blockDim, gridDim, __lo_agg1);
  __syncthreads();
  if (__lo_thread == 0 && __lo_agg1 && launchopt::lastBlockOfScope(__lo_agg1, launchopt::blocksPerGrid())) {
    __lo_launch_spmv_row_products(__lo_agg1, cudaStreamTailLaunch, false);
    launchopt::clearScope(__lo_agg1);
  }
}

}  // namespace

// Entry: parent grids over the rows, kMaxPending rows each.
int spmv_run(const GraphDev& a, const float* d_x, float* d_y) {
  // One pending child per item of the widest parent grid, and no more: a larger
  // pool than the work needs made every device launch slower (and slower in some
  // processes than in others) on the H100.
  size_t need = static_cast<size_t>(a.num_nodes < kMaxPending ? a.num_nodes : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(spmv_failed_launches, &zero, sizeof zero);
  for (int first = 0; first < a.num_nodes; first += kMaxPending) {
    int count = a.num_nodes - first < kMaxPending ? a.num_nodes - first : kMaxPending;
    { cudaStream_t __lo_hstream = 0; dim3 __lo_hgrid = (count + kParentBlock - 1) / kParentBlock, __lo_hblock = kParentBlock; launchopt::resetPool(__lo_hstream, __lo_hgrid, __lo_hblock, {1, 16, 0, 0, 1}); spmv_rows<<<__lo_hgrid, __lo_hblock, 0, __lo_hstream>>>(a, first, d_x, d_y); }
  }
  cudaMemcpyFromSymbol(&failed, spmv_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

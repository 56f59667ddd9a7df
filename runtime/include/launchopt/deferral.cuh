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

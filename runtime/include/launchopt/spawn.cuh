// launchopt device runtime: the spawn controller (--spawn).
//
// Every device-side launch the spawn pass rewrites asks admit() first. The
// controller keeps a model of the child CTAs in flight as a queue served by
// the GPU (the child-CTA queuing system): n, the child CTAs launched and not
// finished; t_cta, the average time of a child CTA; n_con, the average number
// of child CTAs running at once; t_warp, the average time one child thread's
// work takes. A launch of x CTAs for `workload` child threads is estimated to
// finish in
//     t_child  = t_launch + (n + x) * t_cta / n_con        (Equation 1)
// and the parent thread running it itself in
//     t_parent = workload * t_warp                          (Equation 2);
// the child is launched when t_child <= t_parent (Algorithm 1), else the
// parent runs the serial copy. Before any child finished (t_cta = 0) children
// are launched, so that the averages get their first samples.
//
// Never drop: each launched grid holds a ticket and an entry of the
// pending-launch pool (counted by launchopt/deferral.cuh) until its last
// block finishes; no launch is admitted while LAUNCHOPT_SPAWN_MAX_GRIDS grids
// are in flight (the concurrent-grid limit) or the pool is near full. A
// ticket reserves its grid and pool entry within those limits by atomic
// counts, since thousands of parent threads that read the state at once
// would all find it below the limits. Should the pool still refuse the
// launch (other launches of the program), its error is read and the child
// runs serially instead.
//
// Never lose a child that cannot run in the parent thread (barriers, shared
// memory, warp primitives): such a child is launched while the limits of
// blockChildLimits allow (Algorithm 1's comparison has no serial side to
// choose), else deferred
// (launchopt/deferral.cuh): recorded, and launched by the drains, whose
// launches hold tickets too. Every thread of
// such a grid reports its end (ThreadExit), since the child's own barriers
// and early returns leave no common end for its block.
//
// The averages are windowed: each finished child block adds its samples, and
// the block that completes a window of LAUNCHOPT_SPAWN_WINDOW samples
// publishes the window's averages, which the decisions read until the next
// window closes.
//
// State is per translation unit, except where launchopt transforms the files
// of a program together: their outputs then share one controller (see
// `program` below), as they share the pending-launch count of deferral.cuh.
//
// With -DLAUNCHOPT_COUNTERS, each site counts its launched, serialized and
// deferred children and their threads; launchopt_print_counters() prints them as CSV,
// and so does the program at exit once it printed them during main.
#pragma once

// Constants of the model, overridable with -D<name>=<value>. Defaults: the H100
// (sm_90, CUDA 13) figures of the project's notes on dynamic parallelism and
// its GPU description (132 multiprocessors, 32 resident blocks each);
// bench/spawn_probe measures them on the GPU at hand.
#ifndef LAUNCHOPT_SPAWN_LAUNCH_NS
#define LAUNCHOPT_SPAWN_LAUNCH_NS 6500 // one device thread issuing a launch
#endif
#ifndef LAUNCHOPT_SPAWN_SMS
#define LAUNCHOPT_SPAWN_SMS 132
#endif
#ifndef LAUNCHOPT_SPAWN_CTA_SLOTS_PER_SM
#define LAUNCHOPT_SPAWN_CTA_SLOTS_PER_SM 32
#endif
#ifndef LAUNCHOPT_SPAWN_GRID_LIMIT
#define LAUNCHOPT_SPAWN_GRID_LIMIT 128 // resident grids per device (CC 9.0)
#endif
#ifndef LAUNCHOPT_PENDING_POOL
#define LAUNCHOPT_PENDING_POOL 0 // 0: the device's cudaLimitDevRuntimePendingLaunchCount
#endif
#ifndef LAUNCHOPT_RUNTIME_PENDING_POOL
#define LAUNCHOPT_RUNTIME_PENDING_POOL 2048 // that limit's default
#endif
#ifndef LAUNCHOPT_PENDING_RESERVE
#define LAUNCHOPT_PENDING_RESERVE 512 // pool entries only drains may take
#endif
// Grids in flight at which launches stop: the concurrent-grid limit.
#ifndef LAUNCHOPT_SPAWN_MAX_GRIDS
#define LAUNCHOPT_SPAWN_MAX_GRIDS LAUNCHOPT_SPAWN_GRID_LIMIT
#endif
#ifndef LAUNCHOPT_SPAWN_POOL_PER_BLOCK_GRID
#define LAUNCHOPT_SPAWN_POOL_PER_BLOCK_GRID 16 // pool entries per block child's grid in flight
#endif
#ifndef LAUNCHOPT_SPAWN_MAX_QUEUE
#define LAUNCHOPT_SPAWN_MAX_QUEUE 65536 // child CTAs in flight
#endif
#ifndef LAUNCHOPT_SPAWN_SERIAL_THREADS
#define LAUNCHOPT_SPAWN_SERIAL_THREADS 256 // a loop-free child of at most this many threads runs serially
#endif
// Before the first window of measurements closes, a child of fewer threads
// runs serially, as thresholding's default would have it; larger ones are
// launched (within the limits).
#ifndef LAUNCHOPT_SPAWN_PRIOR_THREADS
#define LAUNCHOPT_SPAWN_PRIOR_THREADS LAUNCHOPT_SPAWN_SERIAL_THREADS
#endif
#ifndef LAUNCHOPT_SPAWN_WINDOW
#define LAUNCHOPT_SPAWN_WINDOW 64 // child blocks per averaging window
#endif
#ifndef LAUNCHOPT_COUNTER_SITES
#define LAUNCHOPT_COUNTER_SITES 256 // launch sites per file the counters hold
#endif

#ifdef __CUDACC__
#define LAUNCHOPT_SPAWN_HD __host__ __device__
#else
#define LAUNCHOPT_SPAWN_HD
#endif

namespace launchopt {
namespace spawn {

// What the controller knows when a launch asks (all times in ns).
struct ModelState {
  unsigned long long ctasInFlight;  // n
  unsigned long long gridsInFlight; // launched grids whose last block has not finished
  double launchNs;                  // t_launch
  double ctaNs;                     // t_cta; 0 before the first window closed
  double warpNs;                    // t_warp
  double concurrentCtas;            // n_con
  unsigned long long pendingLaunches = 0; // pool entries the runtime holds
};

// The limits the decision respects.
struct ModelLimits {
  unsigned long long maxQueue;  // n + x may not exceed it
  unsigned long long maxGrids;  // grids in flight at which launches stop
  double maxConcurrentCtas;     // CTA slots of the whole GPU
  unsigned long long maxPending = ~0ull; // pool entries at which launches stop
};

// Whether a launch of `ctas` blocks stays within the grid, queue and pool
// limits: all a child that cannot run serially is decided by.
LAUNCHOPT_SPAWN_HD inline bool withinLimits(const ModelState &S, const ModelLimits &L,
                                            unsigned long long ctas) {
  return S.gridsInFlight < L.maxGrids && S.ctasInFlight + ctas <= L.maxQueue &&
         S.pendingLaunches < L.maxPending;
}

// Algorithm 1, with the pool and grid limits first: whether a child of
// `ctas` blocks and `threads` threads is launched (else serialized).
LAUNCHOPT_SPAWN_HD inline bool shouldLaunch(const ModelState &S, const ModelLimits &L,
                                            unsigned long long ctas, long long threads) {
  if (!withinLimits(S, L, ctas))
    return false;
  if (S.ctaNs <= 0.0)
    return threads >= (long long)LAUNCHOPT_SPAWN_PRIOR_THREADS;
  double concurrent = S.concurrentCtas < 1.0 ? 1.0 : S.concurrentCtas;
  if (concurrent > L.maxConcurrentCtas)
    concurrent = L.maxConcurrentCtas;
  double child = S.launchNs + double(S.ctasInFlight + ctas) * S.ctaNs / concurrent;
  double parent = double(threads) * S.warpNs;
  return child <= parent;
}

// The limits with a pool of `pool` entries (the device reads its size).
LAUNCHOPT_SPAWN_HD inline ModelLimits defaultLimits(unsigned long long pool = LAUNCHOPT_RUNTIME_PENDING_POOL) {
  return {LAUNCHOPT_SPAWN_MAX_QUEUE, LAUNCHOPT_SPAWN_MAX_GRIDS,
          double(LAUNCHOPT_SPAWN_SMS) * LAUNCHOPT_SPAWN_CTA_SLOTS_PER_SM,
          pool - LAUNCHOPT_PENDING_RESERVE};
}

// The limits of a child that cannot run in the parent thread. The queue
// limit weighs a launch against the serial copy, which such a child lacks:
// one deferred while the GPU would have queued it only waits longer, for the
// drains. Its grids in flight grow with the pool, one per
// LAUNCHOPT_SPAWN_POOL_PER_BLOCK_GRID entries and never fewer than the grid
// limit: with the default pool (2,048) and only the pool's count to stop
// them, a recursion of barrier children filled the device runtime's launch
// buffers long before that count did, and its launches waited in the
// runtime for good (test/gpu/programs/deep_partition.cu on the H100). A
// `leaf` child launches nothing itself: only the pool bounds its grids, as
// it bounded the program's own launches (a grid limit deferred most of a
// wide fan-out of leaves, and the drains ran them 40 times slower than the
// launches as written: test/gpu/programs/struct_segments.cu on the H200).
LAUNCHOPT_SPAWN_HD inline ModelLimits blockChildLimits(
    unsigned long long pool = LAUNCHOPT_RUNTIME_PENDING_POOL, bool leaf = false) {
  ModelLimits limits = defaultLimits(pool);
  limits.maxQueue = ~0ull;
  if (leaf) {
    limits.maxGrids = ~0ull;
    return limits;
  }
  unsigned long long byPool = pool / LAUNCHOPT_SPAWN_POOL_PER_BLOCK_GRID;
  if (byPool > limits.maxGrids)
    limits.maxGrids = byPool;
  return limits;
}

} // namespace spawn
} // namespace launchopt

#ifdef __CUDACC__
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#ifndef LAUNCHOPT_DEFERRAL_CUH // an output embeds it before this header
#include <launchopt/deferral.cuh>
#endif

#pragma nv_diag_suppress 177

namespace launchopt {
namespace spawn {

// Tickets are slots of this ring, each holding its grid's unfinished blocks:
// as many as grids may be in flight (children that cannot run in the parent
// thread are bounded by the pool alone).
constexpr unsigned TicketSlots = 65536;

// The controller's state. Alone, a translation unit has its own controller
// (internal linkage). The outputs of a program that launchopt transforms as
// one (several files, -rdc) share one, so that a launch in one file and the
// spawned copy of its child in another, which reports the child's blocks,
// count against the same state: the output marked
// LAUNCHOPT_PROGRAM_SPAWN_DEFINITION defines it, the others marked
// LAUNCHOPT_PROGRAM_SPAWN declare it.
namespace program {

struct Window {
  unsigned long long ctaNs, warpNs, concurrent, count;
};

struct Controller {
  unsigned long long ctasInFlight, gridsInFlight, ctasRunning, nextTicket;
  // Per ticket: the grid's unfinished blocks (threads for a child that
  // reports by thread) and its blocks.
  unsigned blocksLeft[TicketSlots];
  unsigned gridCtas[TicketSlots];
  Window window;
  // The published averages of the last closed window.
  double ctaNs, warpNs, concurrentCtas;
};

#ifdef LAUNCHOPT_PROGRAM_SPAWN
#ifdef LAUNCHOPT_PROGRAM_SPAWN_DEFINITION
__device__ Controller controller;
#else
extern __device__ Controller controller;
#endif
#endif
} // namespace program

namespace {

// Ticket 0 means "serialize"; a grid launched without one (a launch the
// controller may not refuse and could not track) carries Untracked.
constexpr unsigned Untracked = 0xffffffffu;

using program::Controller;
using program::Window;
#ifdef LAUNCHOPT_PROGRAM_SPAWN
using program::controller;
#else
__device__ Controller controller;
#endif

#ifdef LAUNCHOPT_COUNTERS
__device__ unsigned long long counterLaunched[LAUNCHOPT_COUNTER_SITES];
__device__ unsigned long long counterSerialized[LAUNCHOPT_COUNTER_SITES];
__device__ unsigned long long counterDeferred[LAUNCHOPT_COUNTER_SITES];
__device__ unsigned long long counterThreads[LAUNCHOPT_COUNTER_SITES];
#endif

__device__ inline unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// 64-bit atomics have no subtraction: adding the two's complement wraps to it.
__device__ inline void subtract(unsigned long long *counter, unsigned long long amount) {
  atomicAdd(counter, 0ull - amount);
}

__device__ inline bool isLeader(const uint3 &thread) {
  return thread.x == 0 && thread.y == 0 && thread.z == 0;
}

__device__ inline ModelState currentState() {
  volatile Controller &c = controller;
  return {c.ctasInFlight,
          c.gridsInFlight,
          double(LAUNCHOPT_SPAWN_LAUNCH_NS),
          c.ctaNs,
          c.warpNs,
          c.concurrentCtas,
          deferral::pendingNow()};
}

enum class Outcome { Launched, Serialized, Deferred };

__device__ inline void count(unsigned site, Outcome outcome, long long threads) {
#ifdef LAUNCHOPT_COUNTERS
  if (site < LAUNCHOPT_COUNTER_SITES) {
    atomicAdd(outcome == Outcome::Launched     ? &counterLaunched[site]
              : outcome == Outcome::Serialized ? &counterSerialized[site]
                                               : &counterDeferred[site],
              1ull);
    atomicAdd(&counterThreads[site], (unsigned long long)threads);
  }
#endif
}

// Adds `amount` to `counter` and says whether the count before it left room
// for it under `limit`; it takes the amount back when not.
__device__ inline bool reserveWithin(unsigned long long *counter, unsigned long long amount,
                                     unsigned long long limit) {
  if (atomicAdd(counter, amount) + amount <= limit)
    return true;
  subtract(counter, amount);
  return false;
}

// A ticket for a grid of `ctas` blocks that counts down from `left`, or 0
// when no slot is free or, `bounded`, when `limits` would be passed. The
// grid holds its counts and a pool entry.
__device__ inline unsigned takeTicket(unsigned long long ctas, unsigned long long left,
                                      bool bounded, const ModelLimits &limits) {
  if (left >= 0xffffffffull)
    return 0;
  const unsigned long long unbounded = ~0ull;
  if (!reserveWithin(&controller.gridsInFlight, 1ull, bounded ? limits.maxGrids : unbounded))
    return 0;
  if (!reserveWithin(&controller.ctasInFlight, ctas, bounded ? limits.maxQueue : unbounded)) {
    subtract(&controller.gridsInFlight, 1ull);
    return 0;
  }
  if (!deferral::takeEntry(bounded ? limits.maxPending : unbounded)) {
    subtract(&controller.ctasInFlight, ctas);
    subtract(&controller.gridsInFlight, 1ull);
    return 0;
  }
  for (unsigned tries = 0; tries < 8; ++tries) {
    unsigned slot = unsigned(atomicAdd(&controller.nextTicket, 1ull) % TicketSlots);
    if (atomicCAS(&controller.blocksLeft[slot], 0u, unsigned(left)) == 0u) {
      controller.gridCtas[slot] = unsigned(ctas);
      return slot + 1;
    }
  }
  subtract(&controller.ctasInFlight, ctas);
  subtract(&controller.gridsInFlight, 1ull);
  deferral::release(1);
  return 0;
}

// Gives back what a ticket took, for a launch that did not happen.
__device__ inline void releaseTicket(unsigned ticket, unsigned long long ctas) {
  if (ticket == 0 || ticket == Untracked)
    return;
  subtract(&controller.ctasInFlight, ctas);
  subtract(&controller.gridsInFlight, 1ull);
  deferral::release(1);
  atomicExch(&controller.blocksLeft[ticket - 1], 0u);
}

// The decision at a launch site: a ticket to pass to the launched grid, or 0
// to run the serial copy. `forced`: the launch may not be serialized (a grid
// wider than the serial copy can run, a serial recursion at its depth bound).
// `leaf`: the child launches nothing (its grids' bound, when it loops).
// `loopFree`: the child's threads run no loop, so a child of at most
// LAUNCHOPT_SPAWN_SERIAL_THREADS threads costs its parent thread less run
// serially than the launch alone would: it is serialized without asking the
// controller, whose shared counters every parent thread would otherwise touch.
__device__ inline unsigned admit(unsigned site, const dim3 &grid, const dim3 &block,
                                 long long threads, bool forced, bool loopFree = false,
                                 bool leaf = false) {
  if (!forced && loopFree && threads <= (long long)LAUNCHOPT_SPAWN_SERIAL_THREADS) {
    count(site, Outcome::Serialized, threads);
    return 0;
  }
  unsigned long long ctas = (unsigned long long)grid.x * grid.y * grid.z;
  // A stale error of this thread would make the check after the launch
  // ambiguous; the user's code may still read it, so it is left there.
  if (!forced && cudaPeekAtLastError() != cudaSuccess) {
    count(site, Outcome::Serialized, threads);
    return 0;
  }
  const unsigned long long pool = deferral::poolSize();
  ModelLimits limits = defaultLimits(pool);
  // Serialized, a child whose threads loop costs its parent thread their
  // trips one after another: past the concurrent-grid limit it waits in the
  // pending-launch pool instead, its grids bounded as those of a child that
  // cannot run in the parent thread (tc on kron16 ran 2.8x faster so on the
  // H200). Loop-free children keep the limit: lifted for them too, gc
  // kron16 ran 2.1x faster but bfs kron20 1.3x slower.
  if (!loopFree)
    limits.maxGrids = blockChildLimits(pool, leaf).maxGrids;
  if (!forced && !shouldLaunch(currentState(), limits, ctas, threads)) {
    count(site, Outcome::Serialized, threads);
    return 0;
  }
  // A forced launch is made whatever the limits; a ticket counts it if it can.
  unsigned ticket = takeTicket(ctas, ctas, !forced, limits);
  if (ticket == 0 && !forced) {
    count(site, Outcome::Serialized, threads);
    return 0;
  }
  count(site, Outcome::Launched, threads);
  return ticket != 0 ? ticket : Untracked;
}

// The decision for a child that cannot run in the parent thread: a ticket
// for its spawned copy (whose threads each report their end), or 0 to defer
// it. A grid the tickets cannot count (2^32 threads or more) is launched
// Untracked; one that finds no free ticket slot is deferred, since an
// untracked grid would pass the limits unseen. `leaf`: the child launches
// nothing (blockChildLimits); `deferred`: the drain asks, for a launch
// recorded before (counted then); `overdue`: its drain waited too long, the
// launch passes the limits.
__device__ inline unsigned admitBlockChild(unsigned site, const dim3 &grid, const dim3 &block,
                                           long long threads, bool leaf, bool deferred = false,
                                           bool overdue = false) {
  unsigned long long ctas = (unsigned long long)grid.x * grid.y * grid.z;
  unsigned long long blockThreads = (unsigned long long)block.x * block.y * block.z;
  const ModelLimits limits = blockChildLimits(deferral::poolSize(), leaf);
  unsigned ticket = 0;
  if ((deferred || cudaPeekAtLastError() == cudaSuccess) &&
      (overdue || withinLimits(currentState(), limits, ctas))) {
    bool countable = ctas * blockThreads < 0xffffffffull;
    ticket = countable ? takeTicket(ctas, ctas * blockThreads, !overdue, limits) : Untracked;
    if (ticket == 0 && overdue)
      ticket = Untracked;
  }
  if (!deferred)
    count(site, ticket != 0 ? Outcome::Launched : Outcome::Deferred, threads);
  return ticket;
}

// Records a refused child that cannot run in the parent thread; `launch`
// (bool(unsigned ticket, cudaStream_t)) makes the spawned copy's launch.
template <typename Launch>
__device__ inline void deferBlockChild(unsigned site, const dim3 &grid, const dim3 &block,
                                       long long threads, bool leaf, const Launch &launch) {
  deferral::deferToChain([=](cudaStream_t stream, bool overdue) {
    unsigned ticket = admitBlockChild(site, grid, block, threads, leaf, true, overdue);
    if (ticket == 0)
      return false;
    launch(ticket, stream);
    if (cudaGetLastError() == cudaSuccess)
      return true;
    releaseTicket(ticket, (unsigned long long)grid.x * grid.y * grid.z);
    return false;
  });
}

// After the launch: whether it was taken. A launch the pool refused gives its
// ticket back, and the caller runs the serial copy.
__device__ inline bool launched(unsigned site, unsigned ticket, const dim3 &grid,
                                long long threads) {
  if (cudaGetLastError() == cudaSuccess)
    return true;
  releaseTicket(ticket, (unsigned long long)grid.x * grid.y * grid.z);
#ifdef LAUNCHOPT_COUNTERS
  if (site < LAUNCHOPT_COUNTER_SITES) {
    subtract(&counterLaunched[site], 1ull);
    atomicAdd(&counterSerialized[site], 1ull);
  }
#endif
  (void)threads;
  return false;
}

// launched() for a child that cannot run in the parent thread: a launch the
// pool refused is deferred by the caller and counted so.
__device__ inline bool blockChildLaunched(unsigned site, unsigned ticket, const dim3 &grid) {
  if (cudaGetLastError() == cudaSuccess)
    return true;
  releaseTicket(ticket, (unsigned long long)grid.x * grid.y * grid.z);
#ifdef LAUNCHOPT_COUNTERS
  if (site < LAUNCHOPT_COUNTER_SITES) {
    subtract(&counterLaunched[site], 1ull);
    atomicAdd(&counterDeferred[site], 1ull);
  }
#endif
  return false;
}

// At the start of a launched child block: its leader's clock (0 elsewhere).
__device__ inline unsigned long long blockStarted(const uint3 &thread) {
  if (!isLeader(thread))
    return 0;
  unsigned long long running = atomicAdd(&controller.ctasRunning, 1ull) + 1;
  atomicAdd(&controller.window.concurrent, running);
  return now();
}

// Adds one block's samples and closes the window when it is full.
__device__ inline void addSamples(unsigned long long ctaNs, unsigned long long warpNs) {
  Window &w = controller.window;
  atomicAdd(&w.ctaNs, ctaNs);
  atomicAdd(&w.warpNs, warpNs);
  if (atomicAdd(&w.count, 1ull) + 1 != LAUNCHOPT_SPAWN_WINDOW)
    return;
  // This block closed the window: publish its averages and take exactly what
  // was read out of the sums (later samples stay for the next window).
  volatile Window &v = w;
  unsigned long long cta = v.ctaNs, warp = v.warpNs, con = v.concurrent;
  controller.ctaNs = double(cta) / LAUNCHOPT_SPAWN_WINDOW;
  controller.warpNs = double(warp) / LAUNCHOPT_SPAWN_WINDOW;
  controller.concurrentCtas = double(con) / LAUNCHOPT_SPAWN_WINDOW;
  __threadfence();
  subtract(&w.ctaNs, cta);
  subtract(&w.warpNs, warp);
  subtract(&w.concurrent, con);
  subtract(&w.count, (unsigned long long)LAUNCHOPT_SPAWN_WINDOW);
}

// At the end of a launched child block, after a barrier: the leader updates
// the averages, n, and the grid's ticket (its last block ends the grid).
// threadDone: when the leader finished its own child thread (t_warp).
__device__ inline void blockFinished(unsigned ticket, unsigned long long start,
                                     unsigned long long threadDone, const uint3 &thread) {
  if (!isLeader(thread))
    return;
  unsigned long long end = now();
  subtract(&controller.ctasRunning, 1ull);
  addSamples(end - start, threadDone - start);
  if (ticket == Untracked || ticket == 0)
    return;
  subtract(&controller.ctasInFlight, 1ull);
  if (atomicSub(&controller.blocksLeft[ticket - 1], 1u) == 1u) {
    subtract(&controller.gridsInFlight, 1ull);
    deferral::release(1);
  }
}

// Held by every thread of a launched child that cannot run in the parent
// thread: the grid's last thread to end (whatever return it took) ends the
// ticket. Each group of threads that ends together counts itself once.
struct ThreadExit {
  unsigned ticket;
  __device__ explicit ThreadExit(unsigned t) : ticket(t) {}
  __device__ ~ThreadExit() {
    if (ticket == 0 || ticket == Untracked)
      return;
    unsigned together = __activemask(), lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    if (lane != unsigned(__ffs(together) - 1))
      return;
    unsigned n = unsigned(__popc(together));
    if (atomicSub(&controller.blocksLeft[ticket - 1], n) != n)
      return;
    subtract(&controller.ctasInFlight, controller.gridCtas[ticket - 1]);
    subtract(&controller.gridsInFlight, 1ull);
    deferral::release(1);
  }
};

#ifdef LAUNCHOPT_COUNTERS
// A launch site of this file, for the printed table.
struct CounterSite {
  unsigned id;
  const char *position; // file:line
};

const CounterSite *counterSites = nullptr;
unsigned counterSiteCount = 0;

// The counters' device addresses, once a lookup succeeded. The lookup works
// during main only: before main the runtime does not know the symbols yet
// (cudaErrorInvalidSymbol), and at exit it crashed inside the driver
// (SIGSEGV in cuLibraryGetGlobal, on the H100): the exit print uses the
// addresses a print during main found, and says so when there are none.
struct CounterArrays {
  unsigned long long *launched, *serialized, *deferred, *threads;
};
CounterArrays counterArrays{};

bool findCounterArrays() {
  void *l = nullptr, *s = nullptr, *d = nullptr, *t = nullptr;
  if (cudaGetSymbolAddress(&l, counterLaunched) != cudaSuccess ||
      cudaGetSymbolAddress(&s, counterSerialized) != cudaSuccess ||
      cudaGetSymbolAddress(&d, counterDeferred) != cudaSuccess ||
      cudaGetSymbolAddress(&t, counterThreads) != cudaSuccess)
    return false;
  counterArrays = {static_cast<unsigned long long *>(l), static_cast<unsigned long long *>(s),
                   static_cast<unsigned long long *>(d), static_cast<unsigned long long *>(t)};
  return true;
}

bool readCounters(unsigned long long *launched, unsigned long long *serialized,
                  unsigned long long *deferred, unsigned long long *threads) {
  const size_t bytes = sizeof(unsigned long long) * LAUNCHOPT_COUNTER_SITES;
  return cudaMemcpy(launched, counterArrays.launched, bytes, cudaMemcpyDeviceToHost) ==
             cudaSuccess &&
         cudaMemcpy(serialized, counterArrays.serialized, bytes, cudaMemcpyDeviceToHost) ==
             cudaSuccess &&
         cudaMemcpy(deferred, counterArrays.deferred, bytes, cudaMemcpyDeviceToHost) ==
             cudaSuccess &&
         cudaMemcpy(threads, counterArrays.threads, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
}

// `atExit`: the exit handler's call, which may not look the symbols up.
void printCounters(bool atExit) {
  unsigned long long launchedCounts[LAUNCHOPT_COUNTER_SITES];
  unsigned long long serializedCounts[LAUNCHOPT_COUNTER_SITES];
  unsigned long long deferredCounts[LAUNCHOPT_COUNTER_SITES];
  unsigned long long threadCounts[LAUNCHOPT_COUNTER_SITES];
  if (!counterArrays.launched && atExit) {
    std::fprintf(stderr, "launchopt: the launch counters are printed at exit only after a call "
                         "of launchopt_print_counters() during main\n");
    return;
  }
  if ((!counterArrays.launched && !findCounterArrays()) ||
      !readCounters(launchedCounts, serializedCounts, deferredCounts, threadCounts)) {
    std::fprintf(stderr, "launchopt: cannot read the launch counters: %s\n",
                 cudaGetErrorString(cudaGetLastError()));
    return;
  }
  std::printf("site,file:line,launched,serialized,deferred,threads\n");
  for (unsigned i = 0; i < counterSiteCount; ++i) {
    unsigned id = counterSites[i].id;
    if (id >= LAUNCHOPT_COUNTER_SITES)
      continue;
    std::printf("%u,%s,%llu,%llu,%llu,%llu\n", id, counterSites[i].position, launchedCounts[id],
                serializedCounts[id], deferredCounts[id], threadCounts[id]);
  }
  std::fflush(stdout);
}

void printCountersAtExit() { printCounters(true); }

// Made once per file by the spawn pass's site table: prints at exit. The
// runtime is initialised first, so that its own exit handler (registered
// then) runs after this one.
struct CounterRegistration {
  CounterRegistration(const CounterSite *sites, unsigned n) {
    counterSites = sites;
    counterSiteCount = n;
    cudaFree(nullptr);
    std::atexit(printCountersAtExit);
  }
};
#endif

} // namespace
} // namespace spawn
} // namespace launchopt

#ifdef LAUNCHOPT_COUNTERS
// Prints this file's spawn-controlled sites as CSV:
// site,file:line,launched,serialized,deferred,threads.
static inline void launchopt_print_counters() { launchopt::spawn::printCounters(false); }
#endif
#endif

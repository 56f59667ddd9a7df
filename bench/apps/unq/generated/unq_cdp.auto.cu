// launchopt: promoted launches go in pools of LAUNCHOPT_PROMOTE_POOL successors
// (1: basic promotion). Override with -DLAUNCHOPT_PROMOTE_POOL=<n>.
#ifndef LAUNCHOPT_PROMOTE_POOL
#define LAUNCHOPT_PROMOTE_POOL 1024u
#endif
// ---- launchopt runtime: launchopt/promotion.cuh ----
// Launch promotion (launchopt --promote): a single-block kernel that relaunches
// itself from one thread at its end launches its successor at its start
// instead; the successor waits until the parent has stored the arguments and
// released it.
//
// The successors come in pools: a grid of LAUNCHOPT_PROMOTE_POOL blocks, one
// block per successor (--promote=P is a pool of one: each kernel launches its
// own successor). A block takes its place in the chain from an atomic counter
// at its start, so place k is held by a block that is already running when
// place k+1 is handed out. The last place of a pool launches the next pool.
//
// Why nothing deadlocks:
// - A block waits only on its predecessor in the chain: the block holding the
//   place before its own, or the block that launched its pool. Either is
//   already resident (it took its place earlier, or it executed the launch),
//   and it never waits on a later block, so the chain's running block always
//   progresses, however many waiting blocks fill the other SMs.
// - A block that waits does not launch: a successor pool is launched only by
//   a block that was released (or by the host-launched first kernel), so at
//   most one pool ahead of the running block exists and the number of pending
//   launches stays at one per chain.
// - The block that ends the chain (its launch condition false) marks its
//   successor's place and every later one of that pool aborted; those blocks
//   leave, and a leaving last place aborts the next pool too.
// - With overlap (PO, PAO), two releases per place: `ready` at the
//   predecessor's start (the arguments known there; the block then runs the
//   independent start of its body, which writes only its own locals and shared
//   memory and reads only read-only inputs) and `released` at its end. Both
//   wait only on the predecessor, which runs; the chain of `ready` runs ahead
//   only as far as blocks become resident (a waiting block launches nothing
//   but, as the last place of its pool, the next pool).
// - The parent grid of a pool is never waited for by the pool (no
//   device-side synchronization in CDP2); the pool only polls memory.
#include <cuda/atomic>

#ifndef LAUNCHOPT_PROMOTE_POOL
#define LAUNCHOPT_PROMOTE_POOL 1u
#endif

namespace launchopt {
namespace promotion {

using Flag = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

// The places of one pool; Args are the kernel's parameters, stored by the
// predecessor before it releases the place.
template <class Args>
struct Place {
  unsigned ready;    // with overlap: the arguments known at the predecessor's start are stored
  unsigned released; // every argument is stored
  Args args;
};

template <class Args>
struct Pool {
  unsigned size;
  unsigned nextPlace; // the dynamic block index
  unsigned exited;    // blocks that no longer touch the pool
  // The chain ended before this place: it and every later place of the pool
  // leave. A bound, not a flag: with overlap, places before it may still wait
  // for their release.
  unsigned abortFrom;
  Place<Args> places[1];
};

template <class Args>
__device__ Pool<Args> *makePool(unsigned size) {
  if (size == 0)
    size = 1;
  size_t bytes = sizeof(Pool<Args>) + (size - 1) * sizeof(Place<Args>);
  Pool<Args> *pool = static_cast<Pool<Args> *>(malloc(bytes));
  if (!pool)
    return nullptr;
  pool->size = size;
  pool->nextPlace = 0;
  pool->exited = 0;
  pool->abortFrom = ~0u;
  for (unsigned i = 0; i < size; ++i) {
    pool->places[i].ready = 0;
    pool->places[i].released = 0;
  }
  __threadfence(); // the zeroed flags are visible before the pool's blocks run
  return pool;
}

// What one block of a promoted chain hands to its successor, kept in shared
// memory: the successor's place (a pool and an index) and whether the thread
// at the launch site stored the arguments there.
template <class Args>
struct Site {
  Pool<Args> *pool; // the successor's place
  unsigned place;
  int stored;
  Pool<Args> *ownPool; // this block's own place; null in the host-launched kernel
  unsigned ownPlace;
  int waiting; // with overlap: the postponed arguments are not here yet
  // This block's own arguments, in a pool block: bytes, so that the struct
  // stays trivial enough for __shared__ whatever the parameter types are.
  alignas(Args) unsigned char in[sizeof(Args)];
};

template <class Args>
__device__ const Args &arguments(const Site<Args> &site) {
  return *reinterpret_cast<const Args *>(site.in);
}

__device__ inline bool isLeader() {
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

// The launch site: the thread that reaches it stores the arguments.
template <class Args>
__device__ void store(Site<Args> &site, const Args &args) {
  // memcpy: a const parameter makes the struct's assignment unusable.
  memcpy(&site.pool->places[site.place].args, &args, sizeof(Args));
  __threadfence(); // the arguments before the leader's release
  site.stored = 1;
}

// The chain ends before the successor's place.
template <class Args>
__device__ void abortSuccessor(Site<Args> &site) {
  if (!site.pool)
    return;
  __threadfence();
  atomicMin(&site.pool->abortFrom, site.place);
}

template <class Args>
__device__ bool isAborted(Pool<Args> *pool, unsigned place) {
  return Flag(pool->abortFrom).load(cuda::memory_order_acquire) <= place;
}

// The block's end: release the successor with the stored arguments, or end
// the chain there (the remaining places of the pool leave).
template <class Args>
__device__ void finish(Site<Args> &site) {
  __syncthreads();
  if (!isLeader() || !site.pool)
    return;
  __threadfence();
  if (site.stored)
    Flag(site.pool->places[site.place].released).store(1u, cuda::memory_order_release);
  else
    abortSuccessor(site);
}

// Waits for Flag or the abort of the place; true when the flag came.
template <class Args>
__device__ bool await(Pool<Args> *pool, unsigned place, unsigned &flag) {
  Flag f(flag);
  unsigned backoff = 32;
  for (;;) {
    if (f.load(cuda::memory_order_acquire))
      return true;
    if (isAborted(pool, place))
      return false;
    __nanosleep(backoff);
    if (backoff < 1024)
      backoff *= 2;
  }
}

template <class Args>
__device__ void leave(Pool<Args> *pool) {
  __threadfence();
  if (atomicAdd(&pool->exited, 1u) + 1 == pool->size)
    free(pool);
}

// The start of a pool block: take a place, wait for its release (with
// overlap: for the arguments known at the predecessor's start) or the abort,
// copy the arguments. False when the block leaves without running.
template <class Args>
__device__ bool enter(Pool<Args> *pool, Site<Args> &site, bool overlap = false) {
  __shared__ int run;
  if (isLeader()) {
    unsigned place = atomicAdd(&pool->nextPlace, 1u);
    Place<Args> &own = pool->places[place];
    run = await(pool, place, overlap ? own.ready : own.released);
    site.stored = 0;
    site.pool = nullptr;
    site.ownPool = pool;
    site.ownPlace = place;
    site.waiting = overlap;
    if (run) {
      memcpy(site.in, &own.args, sizeof(Args));
      if (place + 1 < pool->size) {
        site.pool = pool;
        site.place = place + 1;
      }
    }
  }
  __syncthreads();
  if (!run && isLeader())
    leave(pool);
  return run;
}

// With overlap, the leader at the block's start: the successor's arguments
// known now are stored (by the caller, into successorArgs) and released.
template <class Args>
__device__ Args &successorArgs(Site<Args> &site) {
  return site.pool->places[site.place].args;
}
template <class Args>
__device__ void publish(Site<Args> &site) {
  __threadfence();
  Flag(site.pool->places[site.place].ready).store(1u, cuda::memory_order_release);
}

// With overlap, after the independent part of the body: wait for the
// postponed arguments (the caller then copies them from arguments()). False
// when the chain ended before this block: it leaves, and finish() ends it
// for the successor too.
template <class Args>
__device__ bool awaitPostponed(Site<Args> &site) {
  __shared__ int go;
  if (isLeader()) {
    go = 1;
    if (site.waiting) {
      Place<Args> &own = site.ownPool->places[site.ownPlace];
      go = await(site.ownPool, site.ownPlace, own.released);
      if (go)
        memcpy(site.in, &own.args, sizeof(Args));
    }
  }
  __syncthreads();
  return go;
}
template <class Args>
__device__ bool inPool(const Site<Args> &site) {
  return site.ownPool != nullptr;
}

// One field of a stored argument struct, converted as a launch converts its
// argument (memcpy: the field may be const).
template <class T, class V>
__device__ void put(const T &field, const V &value) {
  T converted = value;
  memcpy((void *)&field, (const void *)&converted, sizeof(T));
}
template <class Args>
__device__ void stored(Site<Args> &site) {
  __threadfence(); // the arguments before the leader's release
  site.stored = 1;
}

// The end of a pool block, after finish(): the successor of the pool's last
// place is in another pool, so this pool may go.
template <class Args>
__device__ void exitPool(Pool<Args> *pool) {
  if (isLeader())
    leave(pool);
}

// The host-launched first kernel of a chain.
template <class Args>
__device__ void begin(Site<Args> &site) {
  if (isLeader()) {
    site.pool = nullptr;
    site.stored = 0;
    site.ownPool = nullptr;
    site.waiting = 0;
  }
}

// Whether the leader must launch a new pool for the block's successor.
template <class Args>
__device__ bool needsPool(const Site<Args> &site) {
  return isLeader() && !site.pool;
}

// After the leader's launch of a new pool: keep it, or free it when the
// launch failed (the launch site then launches as written).
template <class Args>
__device__ void launched(Site<Args> &site, Pool<Args> *pool, bool ok) {
  if (ok) {
    site.pool = pool;
    site.place = 0;
  } else {
    free(pool);
  }
}

} // namespace promotion
} // namespace launchopt
// ---- end of launchopt/promotion.cuh ----

// Unique, naive CUDA dynamic parallelism: one single-block kernel per step of
// kUnqBlock elements; an element is kept when it differs from the one before
// it (read from global memory, across the step's edge too), the kept ones are
// scanned and written after `offset`, and thread 0 relaunches the kernel for
// the next step with the new offset (the carry).
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

__device__ unsigned int unq_failed_launches;

// launchopt: unq_step is promoted: each step launches its successor at its start and releases it at its end.
struct __lo_promote_args_unq_step {
  const int* __restrict__ in;
  int* out;
  int* count;
  int n;
  int step;
  int offset;
};
__global__ void unq_step(const int* __restrict__ in, int* out, int* count, int n, int step, int offset);
__global__ void __lo_promote_pool_unq_step(launchopt::promotion::Pool<__lo_promote_args_unq_step> *__lo_pool);
__device__ void __lo_promote_body_unq_step(const int* __restrict__ in, int* out, int* count, int n, int step, int offset, launchopt::promotion::Site<__lo_promote_args_unq_step> &__lo_site, const uint3 __lo_blockIdx, const dim3 __lo_gridDim) {
  const uint3 blockIdx = __lo_blockIdx;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx;
  (void)gridDim;
  if (launchopt::promotion::needsPool(__lo_site)) {
    launchopt::promotion::Pool<__lo_promote_args_unq_step> *__lo_next =
        launchopt::promotion::makePool<__lo_promote_args_unq_step>(LAUNCHOPT_PROMOTE_POOL);
    if (__lo_next) {
      __lo_promote_pool_unq_step<<<__lo_next->size, kUnqBlock, 0, cudaStreamFireAndForget>>>(__lo_next);
      launchopt::promotion::launched(__lo_site, __lo_next, cudaGetLastError() == cudaSuccess);
    }
  }
  if (launchopt::promotion::isLeader() && __lo_site.pool) {
    if (((step + 1) * kUnqBlock < n)) {
      __lo_promote_args_unq_step &__lo_succ = launchopt::promotion::successorArgs(__lo_site);
      launchopt::promotion::put(__lo_succ.in, in);
      launchopt::promotion::put(__lo_succ.out, out);
      launchopt::promotion::put(__lo_succ.count, count);
      launchopt::promotion::put(__lo_succ.n, n);
      launchopt::promotion::put(__lo_succ.step, step + 1);
      launchopt::promotion::publish(__lo_site);
    } else {
      launchopt::promotion::abortSuccessor(__lo_site);
    }
  }
  __syncthreads();
  {
  __shared__ int scan[kUnqBlock];
  const int i = step * kUnqBlock + threadIdx.x;
  const int keep = i < n && (i == 0 || in[i] != in[i - 1]) ? 1 : 0;
  scan[threadIdx.x] = keep;
  __syncthreads();
  for (int d = 1; d < kUnqBlock; d *= 2) {
    int add = threadIdx.x >= d ? scan[threadIdx.x - d] : 0;
    __syncthreads();
    scan[threadIdx.x] += add;
    __syncthreads();
  }
  // launchopt: the independent start of the body ends here; the rest waits for the release.
  if (!launchopt::promotion::awaitPostponed(__lo_site))
    return;
  if (launchopt::promotion::inPool(__lo_site)) {
    const __lo_promote_args_unq_step &__lo_own = launchopt::promotion::arguments(__lo_site);
    offset = __lo_own.offset;
  }
  if (keep) out[offset + scan[threadIdx.x] - 1] = in[i];
  const int next_offset = offset + scan[kUnqBlock - 1];
  if (threadIdx.x == 0) {
    if ((step + 1) * kUnqBlock < n) {
      { if (__lo_site.pool) { __lo_promote_args_unq_step &__lo_succ = launchopt::promotion::successorArgs(__lo_site); launchopt::promotion::put(__lo_succ.offset, next_offset); launchopt::promotion::stored(__lo_site); } else unq_step<<<1, kUnqBlock>>>(in, out, count, n, step + 1, next_offset); }
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&unq_failed_launches, 1u);
    } else {
      *count = next_offset;
    }
  }
}
}
__global__ void unq_step(const int* __restrict__ in, int* out, int* count, int n, int step, int offset) {
  __shared__ launchopt::promotion::Site<__lo_promote_args_unq_step> __lo_site;
  launchopt::promotion::begin(__lo_site);
  __lo_promote_body_unq_step(in, out, count, n, step, offset, __lo_site, blockIdx, gridDim);
  launchopt::promotion::finish(__lo_site);
}
__global__ void __lo_promote_pool_unq_step(launchopt::promotion::Pool<__lo_promote_args_unq_step> *__lo_pool) {
  __shared__ launchopt::promotion::Site<__lo_promote_args_unq_step> __lo_site;
  if (!launchopt::promotion::enter(__lo_pool, __lo_site, true))
    return;
  const __lo_promote_args_unq_step &__lo_in = launchopt::promotion::arguments(__lo_site);
  __lo_promote_body_unq_step(__lo_in.in, __lo_in.out, __lo_in.count, __lo_in.n, __lo_in.step, __lo_in.offset, __lo_site, make_uint3(0, 0, 0), dim3(1, 1, 1));
  launchopt::promotion::finish(__lo_site);
  launchopt::promotion::exitPool(__lo_pool);
}


}  // namespace

int unq_run(const int* d_in, int n, int* d_out, int* d_count) {
  if (n <= 0) return -static_cast<int>(cudaErrorInvalidValue);
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(unq_failed_launches, &zero, sizeof zero);
  unq_step<<<1, kUnqBlock>>>(d_in, d_out, d_count, n, 0, 0);
  cudaMemcpyFromSymbol(&failed, unq_failed_launches, sizeof failed);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

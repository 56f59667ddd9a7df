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
// launchopt: removed launches (T3) are recorded per parent block: LAUNCHOPT_REMOVAL_SLOTS
// in shared memory; beyond them the launching thread runs a child of independent
// threads itself, and other children's records go to the device heap.
// Override with -DLAUNCHOPT_REMOVAL_SLOTS=<n>.
#ifndef LAUNCHOPT_REMOVAL_SLOTS
#define LAUNCHOPT_REMOVAL_SLOTS 64u
#endif
// ---- launchopt runtime: launchopt/removal.cuh ----
// launchopt device runtime: launch removal at block granularity (T3, CKi -> PBi).
//
// The threads of a parent block record the child launches they would make in
// a list of the block in shared memory. When the slots are full, a child of
// independent threads is run by the launching thread at once (no device heap,
// which many blocks overflowing together exhaust); other children's records
// go to device-heap nodes. When every thread of the block has finished the parent's
// own work, the whole block runs the recorded child blocks one after another:
// parent thread t runs child thread t of each child block, so a child's warps
// are the parent's warps. Child threads the parent block does not have (a
// child block larger than the parent block) are run in a loop by the parent
// threads, which the transformation allows only for children without
// barriers. Nothing here launches a kernel, so an output whose launches are
// all removed builds without relocatable device code.

#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#ifndef LAUNCHOPT_REMOVAL_SLOTS
#define LAUNCHOPT_REMOVAL_SLOTS 64u
#endif

// Helpers a given output does not use are not worth a warning each.
#pragma nv_diag_suppress 177

namespace launchopt {
namespace removal {
namespace {

// The configuration of a recorded launch. A record of a child is
// { LaunchShape shape; struct { <the child's parameters> } args; }.
struct LaunchShape {
  dim3 grid;
  dim3 block;
  unsigned sharedMemory;
};

// A recorded launch that did not fit in the shared slots.
template <typename Record> struct OverflowNode {
  Record record;
  OverflowNode *next;
};

// The launches of one child that the threads of a parent block recorded, in
// the order they were recorded. Lives in shared memory: no constructor, so
// open() sets it up.
template <typename Record, unsigned Slots> struct BlockLaunches {
  unsigned count;
  OverflowNode<Record> *overflow; // newest first until run() reverses it
  alignas(Record) unsigned char slots[Slots * sizeof(Record)];
};

__device__ inline unsigned linearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ inline unsigned blockThreads() { return blockDim.x * blockDim.y * blockDim.z; }

__device__ inline uint3 unflatten(unsigned i, const dim3 &extent) {
  return make_uint3(i % extent.x, (i / extent.x) % extent.y, i / (extent.x * extent.y));
}

// The state of the barrier over a child block whose thread count is not a
// multiple of the warp size, where bar.sync cannot count its threads.
__device__ inline unsigned *partialBarrierState() {
  __shared__ unsigned state[2]; // arrived, generation
  return state;
}

// Before any thread records: every thread of the block reaches the parent's
// first statement, so the block barrier here is safe.
template <typename Record, unsigned Slots>
__device__ void open(BlockLaunches<Record, Slots> &L) {
  if (linearThread() == 0) {
    L.count = 0;
    L.overflow = nullptr;
    unsigned *state = partialBarrierState();
    state[0] = state[1] = 0;
  }
  __syncthreads();
}

// Called by a parent thread where it launched, for a child whose threads are
// independent: keeps the launch for the block while the shared slots last;
// false when they are full, and then the thread runs the child itself. The
// records are bounded this way, so a launch-heavy block never depends on the
// device heap (which many blocks overflowing at once can exhaust).
template <typename Record, unsigned Slots>
__device__ bool recordInSlots(BlockLaunches<Record, Slots> &L, const Record &r) {
  unsigned i = atomicAdd(&L.count, 1u);
  if (i >= Slots)
    return false;
  memcpy(&L.slots[i * sizeof(Record)], &r, sizeof(Record));
  return true;
}

// Called by a parent thread where it launched, for a child whose block must
// run together: keeps the launch for the block, in shared memory, then on
// the device heap (no thread could run such a child alone).
template <typename Record, unsigned Slots>
__device__ void record(BlockLaunches<Record, Slots> &L, const Record &r) {
  unsigned i = atomicAdd(&L.count, 1u);
  if (i < Slots) {
    memcpy(&L.slots[i * sizeof(Record)], &r, sizeof(Record));
    return;
  }
  auto *node = static_cast<OverflowNode<Record> *>(malloc(sizeof(OverflowNode<Record>)));
  if (!node) {
    printf("launchopt: removed launch %u of block (%u,%u,%u) does not fit in shared memory "
           "and the device heap is full (raise cudaLimitMallocHeapSize or "
           "LAUNCHOPT_REMOVAL_SLOTS)\n",
           i, blockIdx.x, blockIdx.y, blockIdx.z);
    __trap();
  }
  memcpy(&node->record, &r, sizeof(Record));
  node->next = reinterpret_cast<OverflowNode<Record> *>(atomicExch(
      reinterpret_cast<unsigned long long *>(&L.overflow), reinterpret_cast<unsigned long long>(node)));
}

// The barrier of a child block run by the first `threads` threads of the
// parent block (the child's __syncthreads): the block barrier when the sizes
// match, a named barrier when the warp size divides the count, else a
// counter in shared memory (independent thread scheduling lets the waiting
// threads of a warp spin while the others arrive).
__device__ inline void childBarrier(unsigned threads) {
  if (threads == blockThreads()) {
    __syncthreads();
    return;
  }
  if (threads % warpSize == 0) {
    asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
    return;
  }
  unsigned *state = partialBarrierState();
  volatile unsigned *generation = &state[1];
  unsigned seen = *generation;
  __threadfence_block();
  if (atomicAdd(&state[0], 1u) == threads - 1) {
    state[0] = 0;
    __threadfence_block();
    atomicAdd(&state[1], 1u);
  } else {
    while (*generation == seen) {
    }
  }
  __threadfence_block();
}

__device__ inline unsigned dynamicSharedBytes() {
  unsigned bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}

// Every block of one recorded launch, run by the whole parent block.
// RunThread(record, blockIdx, threadIdx) runs one child thread. A child
// block with fewer threads than the parent block leaves the other threads
// waiting at the block barrier after it.
template <typename Record, typename RunThread>
__device__ void runLaunch(const Record &r, bool childSynchronizes, RunThread runThread) {
  unsigned me = linearThread(), parentThreads = blockThreads();
  const LaunchShape &shape = r.shape;
  unsigned childThreads = shape.block.x * shape.block.y * shape.block.z;
  unsigned childBlocks = shape.grid.x * shape.grid.y * shape.grid.z;
  if (shape.sharedMemory > dynamicSharedBytes() || (childSynchronizes && childThreads > parentThreads)) {
    if (me == 0)
      printf("launchopt: a removed launch needs %u threads and %u bytes of dynamic shared memory "
             "per block; the parent block has %u and %u\n",
             childThreads, shape.sharedMemory, parentThreads, dynamicSharedBytes());
    __trap();
  }
  for (unsigned b = 0; b < childBlocks; ++b) {
    uint3 block = unflatten(b, shape.grid);
    for (unsigned t = me; t < childThreads; t += parentThreads)
      runThread(r, block, unflatten(t, shape.block));
    // The next child block reuses the child's shared memory.
    __syncthreads();
  }
}

// After the parent's own work, reached by every thread of the block: runs the
// block's recorded launches in the order they were recorded.
template <typename Record, unsigned Slots, typename RunThread>
__device__ void run(BlockLaunches<Record, Slots> &L, bool childSynchronizes, RunThread runThread) {
  __syncthreads();
  if (linearThread() == 0) {
    OverflowNode<Record> *reversed = nullptr;
    for (OverflowNode<Record> *n = L.overflow; n;) {
      OverflowNode<Record> *next = n->next;
      n->next = reversed;
      reversed = n;
      n = next;
    }
    L.overflow = reversed;
  }
  __syncthreads();
  unsigned inSlots = L.count < Slots ? L.count : Slots;
  for (unsigned i = 0; i < inSlots; ++i)
    runLaunch(*reinterpret_cast<const Record *>(&L.slots[i * sizeof(Record)]), childSynchronizes,
              runThread);
  for (OverflowNode<Record> *n = L.overflow; n; n = n->next)
    runLaunch(n->record, childSynchronizes, runThread);
  __syncthreads();
  if (linearThread() == 0)
    for (OverflowNode<Record> *n = L.overflow; n;) {
      OverflowNode<Record> *next = n->next;
      free(n);
      n = next;
    }
}

} // namespace
} // namespace removal
} // namespace launchopt
// ---- end of launchopt/removal.cuh ----

// Survey propagation, naive CUDA dynamic parallelism (Free Launch's SP: the
// loop over a variable's clauses becomes a launch). Each round the host runs
// four grids: every clause computes its surveys to its free variables; the
// parent thread of every free variable launches a child over the variable's
// occurrences that adds their surveys into its two sums; every free variable
// turns its sums into biases and is fixed when they differ by more than the
// round's threshold; the parent thread of every variable fixed this round
// launches a child over its occurrences that marks the clauses its value
// satisfies. The second launch site is taken by few parent threads, spread
// over the grid: the variables fixed in that round.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;
constexpr int kChildBlock = 32;
constexpr int kMaxPending = 1 << 18;  // see bfs_cdp.cu: parent grids are chunked to the pending-launch pool

__device__ unsigned int sp_failed_launches;

__global__ void sp_init(int n, int m, int* value, int* satisfied, unsigned* pos, unsigned* neg,
                        unsigned* toward_true, unsigned* toward_false, int* fixed_now) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    value[i] = -1;
    pos[i] = neg[i] = kSpOne / 2;
    toward_true[i] = toward_false[i] = 0;
    fixed_now[i] = 0;
  }
  if (i < m) satisfied[i] = 0;
}

// One thread per clause: its survey to each literal of a free variable.
__global__ void sp_surveys(SatDev f, const int* value, const int* satisfied, const unsigned* pos,
                           const unsigned* neg, unsigned* eta) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= f.num_clauses) return;
  int first = f.clause_start[c], last = f.clause_start[c + 1];
  for (int k = first; k < last; ++k) {
    unsigned survey = 0;
    if (!satisfied[c] && value[f.lit_var[k]] < 0) {
      survey = kSpOne;
      for (int j = first; j < last; ++j) {
        int u = f.lit_var[j];
        if (j != k && value[u] < 0) survey = sp_times(survey, sp_against(f.lit_sign[j], pos[u], neg[u]));
      }
    }
    eta[k] = survey;
  }
}

__global__ void sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause,
                                      int occ_begin, int occ_end, int v, const int* satisfied,
                                      const unsigned* eta, unsigned* toward_true, unsigned* toward_false) {
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= occ_end) return;
  int k = occ_literal[o];
  if (satisfied[lit_clause[k]]) return;
  atomicAdd(lit_sign[k] ? &toward_true[v] : &toward_false[v], eta[k]);
}

// launchopt: one thread of 'sp_gather_occurrences', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_ithread_sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= occ_end) return;
  int k = occ_literal[o];
  if (satisfied[lit_clause[k]]) return;
  atomicAdd(lit_sign[k] ? &toward_true[v] : &toward_false[v], eta[k]);
}
}

// launchopt: whether the guard of 'sp_gather_occurrences' ends this thread and every later one in x:
// (o >= occ_end)
static __device__ bool __lo_ithread_exit_sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  (void)o;
  return (o >= occ_end);
}

// launchopt: every thread of a 'sp_gather_occurrences' grid, one after another (serial version).
static __device__ void __lo_inline_sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_ithread_exit_sp_gather_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, v, satisfied, eta, toward_true, toward_false, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_ithread_sp_gather_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, v, satisfied, eta, toward_true, toward_false, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

// launchopt: a launch of 'sp_gather_occurrences' recorded by a thread of its parent block (T3).
struct __lo_rec_sp_gather_occurrences {
  launchopt::removal::LaunchShape shape;
  struct Arguments {
    const int* occ_literal;
    const int* lit_sign;
    const int* lit_clause;
    int occ_begin;
    int occ_end;
    int v;
    const int* satisfied;
    const unsigned* eta;
    unsigned* toward_true;
    unsigned* toward_false;
    __device__ Arguments(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false) : occ_literal(occ_literal), lit_sign(lit_sign), lit_clause(lit_clause), occ_begin(occ_begin), occ_end(occ_end), v(v), satisfied(satisfied), eta(eta), toward_true(toward_true), toward_false(toward_false) {}
  } args;
};

// launchopt: one thread of a 'sp_gather_occurrences' block, run by a thread of the parent block;
// the locals below shadow the built-in index variables with the child thread's values.
static __device__ void __lo_bthread_sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= occ_end) return;
  int k = occ_literal[o];
  if (satisfied[lit_clause[k]]) return;
  atomicAdd(lit_sign[k] ? &toward_true[v] : &toward_false[v], eta[k]);
}
}

__global__ void sp_gather(SatDev f, int first, const int* value, const int* satisfied, const unsigned* eta,
                          unsigned* toward_true, unsigned* toward_false) {
  // launchopt: the launches this block's threads make (T3), run by the whole block when
  // every thread is done with the parent's own work.
  __shared__ launchopt::removal::BlockLaunches<__lo_rec_sp_gather_occurrences, LAUNCHOPT_REMOVAL_SLOTS> __lo_rl_sp_gather_occurrences;
  launchopt::removal::open(__lo_rl_sp_gather_occurrences);
  [&]() {
  int v = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= f.num_vars || value[v] >= 0) return;
  int begin = f.var_start[v], end = f.var_start[v + 1];
  if (end == begin) return;
  { // launchopt: launch of 'sp_gather_occurrences' removed (T3): recorded for the parent block, which runs it at its end
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
#ifdef __CUDACC_RDC__
    } else if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x)) {
      // not the ceiling of its count (a wrapped count): launched as written
      sp_gather_occurrences<<<__lo_grid1, __lo_block1>>>(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, v, satisfied, eta, toward_true, toward_false);
#endif
    } else {
      const __lo_rec_sp_gather_occurrences __lo_r1 = {{__lo_grid1, __lo_block1, (unsigned)(0)}, __lo_rec_sp_gather_occurrences::Arguments(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, v, satisfied, eta, toward_true, toward_false)};
      if (!launchopt::removal::recordInSlots(__lo_rl_sp_gather_occurrences, __lo_r1))
        __lo_inline_sp_gather_occurrences(__lo_r1.args.occ_literal, __lo_r1.args.lit_sign, __lo_r1.args.lit_clause, __lo_r1.args.occ_begin, __lo_r1.args.occ_end, __lo_r1.args.v, __lo_r1.args.satisfied, __lo_r1.args.eta, __lo_r1.args.toward_true, __lo_r1.args.toward_false, __lo_r1.shape.grid, __lo_r1.shape.block); // the slots are full: this thread runs it now
    }
  }
  if (cudaSuccess != cudaSuccess) atomicAdd(&sp_failed_launches, 1u);
  }();
  launchopt::removal::run(__lo_rl_sp_gather_occurrences, false,
      [&](const __lo_rec_sp_gather_occurrences &__lo_rec, uint3 __lo_block, uint3 __lo_thread) {
        __lo_bthread_sp_gather_occurrences(__lo_rec.args.occ_literal, __lo_rec.args.lit_sign, __lo_rec.args.lit_clause, __lo_rec.args.occ_begin, __lo_rec.args.occ_end, __lo_rec.args.v, __lo_rec.args.satisfied, __lo_rec.args.eta, __lo_rec.args.toward_true, __lo_rec.args.toward_false, __lo_block, __lo_thread, __lo_rec.shape.block,
            __lo_rec.shape.grid);
      });
}

// One thread per variable: biases from the sums (then cleared), decimation.
__global__ void sp_decimate(int n, int round, unsigned* toward_true, unsigned* toward_false, unsigned* pos,
                            unsigned* neg, int* value, int* fixed_now) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  fixed_now[v] = 0;
  if (value[v] >= 0) return;
  unsigned t = toward_true[v], f = toward_false[v];
  toward_true[v] = toward_false[v] = 0;
  pos[v] = sp_bias(t, f);
  neg[v] = sp_bias(f, t);
  int lean = static_cast<int>(pos[v]) - static_cast<int>(neg[v]), threshold = sp_threshold(round);
  if (lean > threshold || -lean > threshold) {
    value[v] = lean > 0 ? 1 : 0;
    fixed_now[v] = 1;
  }
}

__global__ void sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause,
                                       int occ_begin, int occ_end, int val, int* satisfied) {
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= occ_end) return;
  int k = occ_literal[o];
  if (lit_sign[k] == val) satisfied[lit_clause[k]] = 1;
}

// launchopt: one thread of 'sp_satisfy_occurrences', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_ithread_sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= occ_end) return;
  int k = occ_literal[o];
  if (lit_sign[k] == val) satisfied[lit_clause[k]] = 1;
}
}

// launchopt: whether the guard of 'sp_satisfy_occurrences' ends this thread and every later one in x:
// (o >= occ_end)
static __device__ bool __lo_ithread_exit_sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  (void)o;
  return (o >= occ_end);
}

// launchopt: every thread of a 'sp_satisfy_occurrences' grid, one after another (serial version).
static __device__ void __lo_inline_sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_ithread_exit_sp_satisfy_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, val, satisfied, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_ithread_sp_satisfy_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, val, satisfied, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

// launchopt: a launch of 'sp_satisfy_occurrences' recorded by a thread of its parent block (T3).
struct __lo_rec_sp_satisfy_occurrences {
  launchopt::removal::LaunchShape shape;
  struct Arguments {
    const int* occ_literal;
    const int* lit_sign;
    const int* lit_clause;
    int occ_begin;
    int occ_end;
    int val;
    int* satisfied;
    __device__ Arguments(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied) : occ_literal(occ_literal), lit_sign(lit_sign), lit_clause(lit_clause), occ_begin(occ_begin), occ_end(occ_end), val(val), satisfied(satisfied) {}
  } args;
};

// launchopt: one thread of a 'sp_satisfy_occurrences' block, run by a thread of the parent block;
// the locals below shadow the built-in index variables with the child thread's values.
static __device__ void __lo_bthread_sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int o = occ_begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= occ_end) return;
  int k = occ_literal[o];
  if (lit_sign[k] == val) satisfied[lit_clause[k]] = 1;
}
}

__global__ void sp_propagate(SatDev f, int first, const int* fixed_now, const int* value, int* satisfied) {
  // launchopt: the launches this block's threads make (T3), run by the whole block when
  // every thread is done with the parent's own work.
  __shared__ launchopt::removal::BlockLaunches<__lo_rec_sp_satisfy_occurrences, LAUNCHOPT_REMOVAL_SLOTS> __lo_rl_sp_satisfy_occurrences;
  launchopt::removal::open(__lo_rl_sp_satisfy_occurrences);
  [&]() {
  int v = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= f.num_vars || !fixed_now[v]) return;
  int begin = f.var_start[v], end = f.var_start[v + 1];
  if (end == begin) return;
  { // launchopt: launch of 'sp_satisfy_occurrences' removed (T3): recorded for the parent block, which runs it at its end
    const auto __lo_n2_x = (end - begin);
    const dim3 __lo_grid2 = (__lo_n2_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block2 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid2, __lo_block2)) {
      // the launch would fail: its child never runs
#ifdef __CUDACC_RDC__
    } else if (!((long long)__lo_grid2.x * __lo_block2.x < (long long)(__lo_n2_x) + __lo_block2.x)) {
      // not the ceiling of its count (a wrapped count): launched as written
      sp_satisfy_occurrences<<<__lo_grid2, __lo_block2>>>(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, value[v], satisfied);
#endif
    } else {
      const __lo_rec_sp_satisfy_occurrences __lo_r2 = {{__lo_grid2, __lo_block2, (unsigned)(0)}, __lo_rec_sp_satisfy_occurrences::Arguments(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, value[v], satisfied)};
      if (!launchopt::removal::recordInSlots(__lo_rl_sp_satisfy_occurrences, __lo_r2))
        __lo_inline_sp_satisfy_occurrences(__lo_r2.args.occ_literal, __lo_r2.args.lit_sign, __lo_r2.args.lit_clause, __lo_r2.args.occ_begin, __lo_r2.args.occ_end, __lo_r2.args.val, __lo_r2.args.satisfied, __lo_r2.shape.grid, __lo_r2.shape.block); // the slots are full: this thread runs it now
    }
  }
  if (cudaSuccess != cudaSuccess) atomicAdd(&sp_failed_launches, 1u);
  }();
  launchopt::removal::run(__lo_rl_sp_satisfy_occurrences, false,
      [&](const __lo_rec_sp_satisfy_occurrences &__lo_rec, uint3 __lo_block, uint3 __lo_thread) {
        __lo_bthread_sp_satisfy_occurrences(__lo_rec.args.occ_literal, __lo_rec.args.lit_sign, __lo_rec.args.lit_clause, __lo_rec.args.occ_begin, __lo_rec.args.occ_end, __lo_rec.args.val, __lo_rec.args.satisfied, __lo_block, __lo_thread, __lo_rec.shape.block,
            __lo_rec.shape.grid);
      });
}

}  // namespace

int sp_run(const SatDev& f, int* d_value, int* d_satisfied) {
  // One pending child per item of the widest parent grid, and no more (see gc_cdp.cu).
  size_t need = static_cast<size_t>(f.num_vars < kMaxPending ? f.num_vars : kMaxPending) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(sp_failed_launches, &zero, sizeof zero);
  unsigned *pos = nullptr, *neg = nullptr, *toward_true = nullptr, *toward_false = nullptr, *eta = nullptr;
  int* fixed_now = nullptr;
  cudaMalloc(&pos, sizeof(unsigned) * f.num_vars);
  cudaMalloc(&neg, sizeof(unsigned) * f.num_vars);
  cudaMalloc(&toward_true, sizeof(unsigned) * f.num_vars);
  cudaMalloc(&toward_false, sizeof(unsigned) * f.num_vars);
  cudaMalloc(&fixed_now, sizeof(int) * f.num_vars);
  cudaMalloc(&eta, sizeof(unsigned) * (f.num_literals > 0 ? f.num_literals : 1));
  int most = f.num_vars > f.num_clauses ? f.num_vars : f.num_clauses;
  sp_init<<<(most + kParentBlock - 1) / kParentBlock, kParentBlock>>>(f.num_vars, f.num_clauses, d_value, d_satisfied,
                                                                      pos, neg, toward_true, toward_false, fixed_now);
  const int var_blocks = (f.num_vars + kParentBlock - 1) / kParentBlock;
  for (int round = 0; round < kSpRounds; ++round) {
    sp_surveys<<<(f.num_clauses + kParentBlock - 1) / kParentBlock, kParentBlock>>>(f, d_value, d_satisfied, pos, neg,
                                                                                    eta);
    for (int first = 0; first < f.num_vars; first += kMaxPending) {
      int count = f.num_vars - first < kMaxPending ? f.num_vars - first : kMaxPending;
      sp_gather<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(f, first, d_value, d_satisfied, eta,
                                                                            toward_true, toward_false);
    }
    sp_decimate<<<var_blocks, kParentBlock>>>(f.num_vars, round, toward_true, toward_false, pos, neg, d_value,
                                              fixed_now);
    for (int first = 0; first < f.num_vars; first += kMaxPending) {
      int count = f.num_vars - first < kMaxPending ? f.num_vars - first : kMaxPending;
      sp_propagate<<<(count + kParentBlock - 1) / kParentBlock, kParentBlock>>>(f, first, fixed_now, d_value,
                                                                               d_satisfied);
    }
  }
  cudaMemcpyFromSymbol(&failed, sp_failed_launches, sizeof failed);
  cudaFree(pos);
  cudaFree(neg);
  cudaFree(toward_true);
  cudaFree(toward_false);
  cudaFree(fixed_now);
  cudaFree(eta);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

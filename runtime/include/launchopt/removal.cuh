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
#pragma once

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

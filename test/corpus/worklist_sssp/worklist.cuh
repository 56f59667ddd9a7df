// A device worklist: items appended with one atomic per push, and a
// per-node stamp so that a node is pushed at most once per round.
#pragma once
#include "graph.cuh"

struct Worklist {
  int *items;
  int *count;
  int capacity;
};

__device__ inline bool pushOnce(Worklist wl, int *stamp, int node, int round) {
  if (atomicExch(&stamp[node], round) == round)
    return false;
  int slot = atomicAdd(wl.count, 1);
  if (slot < wl.capacity)
    wl.items[slot] = node;
  return true;
}

// The item this thread handles, or -1 past the end of the list.
__device__ inline int itemForThread(Worklist wl) {
  int i = globalThreadId();
  return i < *wl.count && i < wl.capacity ? wl.items[i] : -1;
}

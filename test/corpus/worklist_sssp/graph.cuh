// CSR graph with integer edge weights, and the thread-indexing helpers the
// kernels share (LonestarGPU keeps these in its common headers too).
#pragma once

struct CSRGraph {
  int nnodes;
  int nedges;
  const int *row_start; // nnodes + 1 entries
  const int *edge_dst;
  const int *edge_weight;
};

__device__ inline int getOutDegree(const CSRGraph &g, int node) {
  return g.row_start[node + 1] - g.row_start[node];
}

__device__ inline int getFirstEdge(const CSRGraph &g, int node) { return g.row_start[node]; }

// The thread's index in the whole grid.
__device__ inline int globalThreadId() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Threads in the whole grid, for grid-stride loops.
__device__ inline int totalThreads() { return gridDim.x * blockDim.x; }

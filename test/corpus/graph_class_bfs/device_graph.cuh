// A graph class whose CSR arrays are private: kernels reach them only
// through accessors, some of which read the built-in index variables.
#pragma once

class DeviceGraph {
public:
  static constexpr int kUnvisited = -1;

  DeviceGraph(const int *offsets, const int *targets, int nodes)
      : offsets_(offsets), targets_(targets), nodes_(nodes) {}

  __host__ __device__ int nodes() const { return nodes_; }
  __device__ int degree(int v) const { return offsets_[v + 1] - offsets_[v]; }
  __device__ int neighbor(int v, int k) const { return targets_[offsets_[v] + k]; }

  // The edge of `v` this thread of a per-node child grid handles.
  __device__ int edgeOfThread() const { return blockIdx.x * blockDim.x + threadIdx.x; }

  // The node this thread of a per-node parent grid handles, or -1.
  __device__ int nodeOfThread() const {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    return v < nodes_ ? v : -1;
  }

  // Threads of the current grid, for strided loops.
  static __device__ int gridThreads() { return gridDim.x * blockDim.x; }

private:
  const int *offsets_;
  const int *targets_;
  int nodes_;
};

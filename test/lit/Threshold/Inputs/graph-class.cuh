// A graph class whose accessors read the built-in index variables, for the
// class-member tests: public fields (its members can be copied outside the
// class), a class template, and a class whose accessor reads a private field.
#pragma once

namespace csr {
struct Graph {
  static constexpr int kNone = -1;
  const int *offsets;
  const int *targets;
  __device__ int degree(int v) const { return offsets[v + 1] - offsets[v]; }
  __device__ int neighborOfThread(int v) const {
    int k = edgeOfThread();
    return k < degree(v) ? this->targets[offsets[v] + k] : kNone;
  }
  __device__ int edgeOfThread() const { return blockIdx.x * blockDim.x + threadIdx.x; }
  static __device__ int gridThreads() { return gridDim.x * blockDim.x; }
};

template <typename T> struct Values {
  T *data;
  __device__ T &mine() { return data[threadIdx.x]; }
};

class Sealed {
public:
  __device__ int slot() const { return base_ + threadIdx.x; }

private:
  int base_;
};
} // namespace csr

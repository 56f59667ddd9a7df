// launchopt host runtime: renamed buffers of expandable arrays (kernel fusion).
//
// A fused launch sequence may let a kernel that overwrites an array run
// before earlier kernels have read the array's previous contents
// (scalable-kernel-fusion §II-B1 c). Each later version then lives in a fresh
// buffer the size of the user's allocation, filled with the allocation's
// contents before the sequence, so that sites no kernel of the sequence
// writes read as they did. After the sequence the final version is copied
// back into the user's allocation. Everything runs in the sequence's stream:
// no host synchronisation is added.
#pragma once

#include <cstddef>
#include <cuda.h>
#include <cuda_runtime.h>

namespace launchopt {
namespace {

// The device allocation that holds Pointer. The runtime API has no query for
// an allocation's extent; the driver's is reached through the runtime so
// that the program need not link libcuda.
inline bool allocationExtent(const void *Pointer, char *&Base, size_t &Bytes) {
  using Query = CUresult (*)(CUdeviceptr *, size_t *, CUdeviceptr);
  static const Query Extent = [] {
    void *Function = nullptr;
    cudaDriverEntryPointQueryResult Found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &Function, 12000,
                                         cudaEnableDefault, &Found) != cudaSuccess ||
        Found != cudaDriverEntryPointSuccess)
      return Query(nullptr);
    return reinterpret_cast<Query>(Function);
  }();
  CUdeviceptr First = 0;
  if (!Extent ||
      Extent(&First, &Bytes, static_cast<CUdeviceptr>(reinterpret_cast<size_t>(Pointer))) !=
          CUDA_SUCCESS)
    return false;
  Base = reinterpret_cast<char *>(static_cast<size_t>(First));
  return true;
}

// The renamed buffers of one fused launch sequence, freed (stream-ordered)
// when the sequence's scope ends. When a buffer cannot be had, ok() is false
// and the caller runs the original launch sequence instead.
template <unsigned Capacity> class RenamedArrays {
public:
  explicit RenamedArrays(cudaStream_t Stream) : Stream(Stream) {}
  RenamedArrays(const RenamedArrays &) = delete;
  RenamedArrays &operator=(const RenamedArrays &) = delete;
  ~RenamedArrays() {
    for (unsigned I = 0; I < Count; ++I)
      cudaFreeAsync(Buffers[I].Fresh, Stream);
  }

  bool ok() const { return Ok; }

  // A new version of the array User points into: the same place in a fresh
  // copy of User's allocation.
  template <class T> T *rename(T *User) {
    Buffer &B = Buffers[Count];
    if (!Ok || Count == Capacity || !allocationExtent(User, B.UserBase, B.Bytes) ||
        cudaMallocAsync(reinterpret_cast<void **>(&B.Fresh), B.Bytes, Stream) != cudaSuccess) {
      Ok = false;
      return User;
    }
    ++Count;
    if (cudaMemcpyAsync(B.Fresh, B.UserBase, B.Bytes, cudaMemcpyDeviceToDevice, Stream) !=
        cudaSuccess)
      Ok = false;
    return reinterpret_cast<T *>(B.Fresh + (reinterpret_cast<const char *>(User) - B.UserBase));
  }

  // The final version back into the user's allocation.
  template <class T> void copyBack(T *Renamed) {
    const char *At = reinterpret_cast<const char *>(Renamed);
    for (unsigned I = 0; I < Count; ++I)
      if (At >= Buffers[I].Fresh && At < Buffers[I].Fresh + Buffers[I].Bytes)
        cudaMemcpyAsync(Buffers[I].UserBase, Buffers[I].Fresh, Buffers[I].Bytes,
                        cudaMemcpyDeviceToDevice, Stream);
  }

private:
  struct Buffer {
    char *UserBase = nullptr;
    char *Fresh = nullptr;
    size_t Bytes = 0;
  };
  cudaStream_t Stream;
  Buffer Buffers[Capacity];
  unsigned Count = 0;
  bool Ok = true;
};

} // namespace
} // namespace launchopt

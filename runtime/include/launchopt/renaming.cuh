// launchopt host runtime: renamed buffers of expandable arrays (kernel fusion).
//
// A fused launch sequence may let a kernel that overwrites an array run
// before earlier kernels have read the array's previous contents
// (scalable-kernel-fusion §II-B1 c). The final version is written into the
// user's allocation; each earlier version of the sequence lives in a fresh
// buffer the size of that allocation, filled with the allocation's contents
// before the sequence, so that sites no kernel of the sequence writes read
// as they did. Everything runs in the sequence's stream: no host
// synchronisation is added, and nothing is copied back.
#pragma once

#include <cstddef>
#include <cuda.h>
#include <cuda_runtime.h>
#include <mutex>

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

// A memory pool per device that keeps its memory between sequences: the
// buffers of a sequence that runs every time step are then reused instead of
// mapped again after each synchronisation (the default pool's release
// threshold is 0). Separate from the default pool, whose settings are the
// program's.
inline cudaMemPool_t renamingPool() {
  constexpr int MaxDevices = 64;
  static cudaMemPool_t Pools[MaxDevices] = {};
  static std::mutex Guard;
  int Device = 0;
  if (cudaGetDevice(&Device) != cudaSuccess || Device >= MaxDevices)
    return nullptr;
  std::lock_guard<std::mutex> Lock(Guard);
  if (!Pools[Device]) {
    cudaMemPoolProps Props = {};
    Props.allocType = cudaMemAllocationTypePinned;
    Props.handleTypes = cudaMemHandleTypeNone;
    Props.location.type = cudaMemLocationTypeDevice;
    Props.location.id = Device;
    cudaMemPool_t Pool = nullptr;
    if (cudaMemPoolCreate(&Pool, &Props) != cudaSuccess)
      return nullptr;
    cuuint64_t Keep = ~0ull;
    cudaMemPoolSetAttribute(Pool, cudaMemPoolAttrReleaseThreshold, &Keep);
    Pools[Device] = Pool;
  }
  return Pools[Device];
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
        !renamingPool() ||
        cudaMallocFromPoolAsync(reinterpret_cast<void **>(&B.Fresh), B.Bytes, renamingPool(),
                                Stream) != cudaSuccess) {
      Ok = false;
      return User;
    }
    ++Count;
    if (cudaMemcpyAsync(B.Fresh, B.UserBase, B.Bytes, cudaMemcpyDeviceToDevice, Stream) !=
        cudaSuccess)
      Ok = false;
    return reinterpret_cast<T *>(B.Fresh + (reinterpret_cast<const char *>(User) - B.UserBase));
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

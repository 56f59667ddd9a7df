// ---- launchopt runtime: launchopt/renaming.cuh ----
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
// ---- end of launchopt/renaming.cuh ----
// The shallow-water step of dycore.cu written to save memory: one scratch
// array holds the height flux first and the kinetic energy after it, so the
// kernel that overwrites it must wait for the divergence to read the flux (an
// expandable read-write array, scalable-kernel-fusion §II-B1 c). The test-bed
// of renaming (launchopt fuse --rename-expandable): kinetic_energy can join
// the kernels that read u and v only when the energy goes to a new buffer.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

__global__ void flux_x(const float *h, const float *u, float *hu, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hu[c] = 0.5f * (h[c] + h[c + 1]) * u[c];
}

__global__ void flux_y(const float *h, const float *v, float *hv, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hv[c] = 0.5f * (h[c] + h[c + nx]) * v[c];
}

__global__ void kinetic_energy(const float *u, const float *v, float *ke, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  ke[c] = 0.25f * (u[c] * u[c] + u[c - 1] * u[c - 1] + v[c] * v[c] + v[c - nx] * v[c - nx]);
}

__global__ void vorticity(const float *u, const float *v, const float *f, float *q, int nx,
                          int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  q[c] = (v[c + 1] - v[c]) - (u[c + nx] - u[c]) + f[c];
}

__global__ void divergence(const float *hu, const float *hv, float *dv, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  dv[c] = (hu[c] - hu[c - 1]) + (hv[c] - hv[c - nx]);
}

__global__ void update_u(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *un, float dt, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + 1] - ke[c]) + 9.81f * ((h[c + 1] + b[c + 1]) - (h[c] + b[c]));
  un[c] = u[c] - dt * (grad - q[c] * v[c]);
}

__global__ void update_v(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *vn, float dt, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + nx] - ke[c]) + 9.81f * ((h[c + nx] + b[c + nx]) - (h[c] + b[c]));
  vn[c] = v[c] - dt * (grad + q[c] * u[c]);
}

__global__ void update_h(const float *h, const float *dv, float *hn, float dt, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hn[c] = h[c] - dt * dv[c];
}

// Fourth-order hyperdiffusion of the new height: a radius-2 stencil.
__global__ void diffuse_h(const float *hn, float *hs, float nu, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hs[c] = hn[c] + nu * (hn[c - 2] + hn[c + 2] + hn[c - 2 * nx] + hn[c + 2 * nx] - 4.0f * hn[c]);
}

__global__ void energy(const float *hs, const float *un, const float *vn, const float *b,
                       float *e, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  e[c] = 0.5f * hs[c] * (un[c] * un[c] + vn[c] * vn[c]) + 9.81f * hs[c] * b[c];
}

// One time step: ten launches over the same grid; `w` is the scratch array
// (the driver's hu output), ke is left as the driver set it.
#ifdef LAUNCHOPT_FUSION_TIMING
#include <cstdio>
static const char *const __lo_fusion_names[] = {"flux_x+flux_y+kinetic_energy+vorticity", "divergence+update_v+update_h", "update_u+diffuse_h+energy", };
static cudaEvent_t __lo_fusion_events[2 * 3];
static double __lo_fusion_ms[3];
static void __lo_fusion_begin(int I) {
  if (!__lo_fusion_events[0])
    for (cudaEvent_t &E : __lo_fusion_events)
      cudaEventCreate(&E);
  cudaEventRecord(__lo_fusion_events[2 * I]);
}
static void __lo_fusion_end(int I) {
  float Ms = 0;
  cudaEventRecord(__lo_fusion_events[2 * I + 1]);
  cudaEventSynchronize(__lo_fusion_events[2 * I + 1]);
  cudaEventElapsedTime(&Ms, __lo_fusion_events[2 * I], __lo_fusion_events[2 * I + 1]);
  __lo_fusion_ms[I] += Ms;
}
static void __lo_fusion_timing_report(int Runs) {
  for (int I = 0; I < 3; ++I)
    printf("launch %d %s: %.4f ms\n", I, __lo_fusion_names[I], __lo_fusion_ms[I] / Runs);
}
#else
#define __lo_fusion_begin(I)
#define __lo_fusion_end(I)
#endif

static __device__ __forceinline__ void __lo_body_flux_x_in_fused_0(const float *h, const float *u, float *hu, int nx, int ny, float &__lo_reg_h, bool &__lo_has_h, float &__lo_reg_u, bool &__lo_has_u, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hu[c] = 0.5f * ((__lo_has_h ? __lo_reg_h : (__lo_has_h = true, __lo_reg_h = h[c])) + h[c + 1]) * (__lo_has_u ? __lo_reg_u : (__lo_has_u = true, __lo_reg_u = u[c]));
}

static __device__ __forceinline__ void __lo_body_flux_y_in_fused_0(const float *h, const float *v, float *hv, int nx, int ny, float &__lo_reg_h, bool &__lo_has_h, float &__lo_reg_v, bool &__lo_has_v, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hv[c] = 0.5f * ((__lo_has_h ? __lo_reg_h : (__lo_has_h = true, __lo_reg_h = h[c])) + h[c + nx]) * (__lo_has_v ? __lo_reg_v : (__lo_has_v = true, __lo_reg_v = v[c]));
}

static __device__ __forceinline__ void __lo_body_kinetic_energy_in_fused_0(const float *u, const float *v, float *ke, int nx, int ny, float &__lo_reg_u, bool &__lo_has_u, float &__lo_reg_v, bool &__lo_has_v, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  ke[c] = 0.25f * ((__lo_has_u ? __lo_reg_u : (__lo_has_u = true, __lo_reg_u = u[c])) * (__lo_has_u ? __lo_reg_u : (__lo_has_u = true, __lo_reg_u = u[c])) + u[c - 1] * u[c - 1] + (__lo_has_v ? __lo_reg_v : (__lo_has_v = true, __lo_reg_v = v[c])) * (__lo_has_v ? __lo_reg_v : (__lo_has_v = true, __lo_reg_v = v[c])) + v[c - nx] * v[c - nx]);
}

static __device__ __forceinline__ void __lo_body_vorticity_in_fused_0(const float *u, const float *v, const float *f, float *q, int nx,
                          int ny, float &__lo_reg_u, bool &__lo_has_u, float &__lo_reg_v, bool &__lo_has_v, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  q[c] = (v[c + 1] - (__lo_has_v ? __lo_reg_v : (__lo_has_v = true, __lo_reg_v = v[c]))) - (u[c + nx] - (__lo_has_u ? __lo_reg_u : (__lo_has_u = true, __lo_reg_u = u[c]))) + f[c];
}

// Simple fusion of flux_x+flux_y+kinetic_energy+vorticity (launchopt fuse).
// On chip: registers: h u v; global memory: w (two versions of a renamed array).
__global__ void __lo_fused_0(const float *__lo_arr_h, const float *__lo_arr_u, float *__lo_w_v0, int __lo_m0_nx, int __lo_m0_ny, const float *__lo_arr_v, float *__lo_arr_hv, int __lo_m1_nx, int __lo_m1_ny, float *__lo_arr_w, int __lo_m2_nx, int __lo_m2_ny, const float *__lo_arr_f, float *__lo_arr_q, int __lo_m3_nx, int __lo_m3_ny) {
  float __lo_reg_h;
  bool __lo_has_h = false;
  float __lo_reg_u;
  bool __lo_has_u = false;
  float __lo_reg_v;
  bool __lo_has_v = false;
  __lo_body_flux_x_in_fused_0(__lo_arr_h, __lo_arr_u, __lo_w_v0, __lo_m0_nx, __lo_m0_ny, __lo_reg_h, __lo_has_h, __lo_reg_u, __lo_has_u, blockIdx, threadIdx);
  __lo_body_flux_y_in_fused_0(__lo_arr_h, __lo_arr_v, __lo_arr_hv, __lo_m1_nx, __lo_m1_ny, __lo_reg_h, __lo_has_h, __lo_reg_v, __lo_has_v, blockIdx, threadIdx);
  __lo_body_kinetic_energy_in_fused_0(__lo_arr_u, __lo_arr_v, __lo_arr_w, __lo_m2_nx, __lo_m2_ny, __lo_reg_u, __lo_has_u, __lo_reg_v, __lo_has_v, blockIdx, threadIdx);
  __lo_body_vorticity_in_fused_0(__lo_arr_u, __lo_arr_v, __lo_arr_f, __lo_arr_q, __lo_m3_nx, __lo_m3_ny, __lo_reg_u, __lo_has_u, __lo_reg_v, __lo_has_v, blockIdx, threadIdx);
}

static __device__ __forceinline__ void __lo_body_divergence_in_fused_1(const float *hu, const float *hv, float *dv, int nx, int ny, float &__lo_reg_dv, bool &__lo_has_dv, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  dv[c] = __lo_reg_dv = (hu[c] - hu[c - 1]) + (hv[c] - hv[c - nx]), __lo_has_dv = true;
}

static __device__ __forceinline__ void __lo_body_update_v_in_fused_1(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *vn, float dt, int nx, int ny, float &__lo_reg_h, bool &__lo_has_h, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + nx] - ke[c]) + 9.81f * ((h[c + nx] + b[c + nx]) - ((__lo_has_h ? __lo_reg_h : (__lo_has_h = true, __lo_reg_h = h[c])) + b[c]));
  vn[c] = v[c] - dt * (grad + q[c] * u[c]);
}

static __device__ __forceinline__ void __lo_body_update_h_in_fused_1(const float *h, const float *dv, float *hn, float dt, int nx, int ny, float &__lo_reg_h, bool &__lo_has_h, float &__lo_reg_dv, bool &__lo_has_dv, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hn[c] = (__lo_has_h ? __lo_reg_h : (__lo_has_h = true, __lo_reg_h = h[c])) - dt * (__lo_has_dv ? __lo_reg_dv : (__lo_has_dv = true, __lo_reg_dv = dv[c]));
}

// Complex fusion of divergence+update_v+update_h (launchopt fuse).
// On chip: registers: h dv; global memory: w (two versions of a renamed array).
__global__ void __lo_fused_1(const float *__lo_w_v0, const float *__lo_arr_hv, float *__lo_arr_dv, int __lo_m0_nx, int __lo_m0_ny, const float *__lo_arr_u, const float *__lo_arr_v, const float *__lo_arr_h, const float *__lo_arr_b, const float *__lo_arr_w, const float *__lo_arr_q, float *__lo_arr_vn, float __lo_m1_dt, int __lo_m1_nx, int __lo_m1_ny, float *__lo_arr_hn, float __lo_m2_dt, int __lo_m2_nx, int __lo_m2_ny) {
  float __lo_reg_h;
  bool __lo_has_h = false;
  float __lo_reg_dv;
  bool __lo_has_dv = false;
  __lo_body_divergence_in_fused_1(__lo_w_v0, __lo_arr_hv, __lo_arr_dv, __lo_m0_nx, __lo_m0_ny, __lo_reg_dv, __lo_has_dv, blockIdx, threadIdx);
  __lo_body_update_v_in_fused_1(__lo_arr_u, __lo_arr_v, __lo_arr_h, __lo_arr_b, __lo_arr_w, __lo_arr_q, __lo_arr_vn, __lo_m1_dt, __lo_m1_nx, __lo_m1_ny, __lo_reg_h, __lo_has_h, blockIdx, threadIdx);
  __lo_body_update_h_in_fused_1(__lo_arr_h, __lo_arr_dv, __lo_arr_hn, __lo_m2_dt, __lo_m2_nx, __lo_m2_ny, __lo_reg_h, __lo_has_h, __lo_reg_dv, __lo_has_dv, blockIdx, threadIdx);
}

static __device__ __forceinline__ void __lo_body_update_u_in_fused_2(const float *u, const float *v, const float *h, const float *b,
                         const float *ke, const float *q, float *un, float dt, int nx, int ny, float &__lo_reg_b, bool &__lo_has_b, float &__lo_reg_un, bool &__lo_has_un, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  float grad = (ke[c + 1] - ke[c]) + 9.81f * ((h[c + 1] + b[c + 1]) - (h[c] + (__lo_has_b ? __lo_reg_b : (__lo_has_b = true, __lo_reg_b = b[c]))));
  un[c] = __lo_reg_un = u[c] - dt * (grad - q[c] * v[c]), __lo_has_un = true;
}

static __device__ __forceinline__ void __lo_body_diffuse_h_in_fused_2(const float *hn, float *hs, float nu, int nx, int ny, float &__lo_reg_hs, bool &__lo_has_hs, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  hs[c] = __lo_reg_hs = hn[c] + nu * (hn[c - 2] + hn[c + 2] + hn[c - 2 * nx] + hn[c + 2 * nx] - 4.0f * hn[c]), __lo_has_hs = true;
}

static __device__ __forceinline__ void __lo_body_energy_in_fused_2(const float *hs, const float *un, const float *vn, const float *b,
                       float *e, int nx, int ny, float &__lo_reg_b, bool &__lo_has_b, float &__lo_reg_un, bool &__lo_has_un, float &__lo_reg_hs, bool &__lo_has_hs, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx) {
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 2 || j < 2 || i >= nx - 2 || j >= ny - 2)
    return;
  int c = j * nx + i;
  e[c] = 0.5f * (__lo_has_hs ? __lo_reg_hs : (__lo_has_hs = true, __lo_reg_hs = hs[c])) * ((__lo_has_un ? __lo_reg_un : (__lo_has_un = true, __lo_reg_un = un[c])) * (__lo_has_un ? __lo_reg_un : (__lo_has_un = true, __lo_reg_un = un[c])) + vn[c] * vn[c]) + 9.81f * (__lo_has_hs ? __lo_reg_hs : (__lo_has_hs = true, __lo_reg_hs = hs[c])) * (__lo_has_b ? __lo_reg_b : (__lo_has_b = true, __lo_reg_b = b[c]));
}

// Complex fusion of update_u+diffuse_h+energy (launchopt fuse).
// On chip: registers: b un hs.
__global__ void __lo_fused_2(const float *__lo_arr_u, const float *__lo_arr_v, const float *__lo_arr_h, const float *__lo_arr_b, const float *__lo_arr_w, const float *__lo_arr_q, float *__lo_arr_un, float __lo_m0_dt, int __lo_m0_nx, int __lo_m0_ny, const float *__lo_arr_hn, float *__lo_arr_hs, float __lo_m1_nu, int __lo_m1_nx, int __lo_m1_ny, const float *__lo_arr_vn, float *__lo_arr_e, int __lo_m2_nx, int __lo_m2_ny) {
  float __lo_reg_b;
  bool __lo_has_b = false;
  float __lo_reg_un;
  bool __lo_has_un = false;
  float __lo_reg_hs;
  bool __lo_has_hs = false;
  __lo_body_update_u_in_fused_2(__lo_arr_u, __lo_arr_v, __lo_arr_h, __lo_arr_b, __lo_arr_w, __lo_arr_q, __lo_arr_un, __lo_m0_dt, __lo_m0_nx, __lo_m0_ny, __lo_reg_b, __lo_has_b, __lo_reg_un, __lo_has_un, blockIdx, threadIdx);
  __lo_body_diffuse_h_in_fused_2(__lo_arr_hn, __lo_arr_hs, __lo_m1_nu, __lo_m1_nx, __lo_m1_ny, __lo_reg_hs, __lo_has_hs, blockIdx, threadIdx);
  __lo_body_energy_in_fused_2(__lo_arr_hs, __lo_arr_un, __lo_arr_vn, __lo_arr_b, __lo_arr_e, __lo_m2_nx, __lo_m2_ny, __lo_reg_b, __lo_has_b, __lo_reg_un, __lo_has_un, __lo_reg_hs, __lo_has_hs, blockIdx, threadIdx);
}

void step(const float *h, const float *u, const float *v, const float *b, const float *f,
          float *w, float *hv, float *ke, float *q, float *dv, float *un, float *vn, float *hn,
          float *hs, float *e, float dt, float nu, int nx, int ny) {
  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  {
    // launchopt fuse: renamed buffers of expandable arrays.
    launchopt::RenamedArrays<1> __lo_renamed_0(0);
    auto *const __lo_w_v0 = __lo_renamed_0.rename(w);
    if (__lo_renamed_0.ok()) {
      __lo_fusion_begin(0);
      __lo_fused_0<<<grid, block>>>(h, u, __lo_w_v0, nx, ny, v, hv, nx, ny, w, nx, ny, f, q, nx, ny);
      __lo_fusion_end(0);
      __lo_fusion_begin(1);
      __lo_fused_1<<<grid, block>>>(__lo_w_v0, hv, dv, nx, ny, u, v, h, b, w, q, vn, dt, nx, ny, hn, dt, nx, ny);
      __lo_fusion_end(1);
      __lo_fusion_begin(2);
      __lo_fused_2<<<grid, block>>>(u, v, h, b, w, q, un, dt, nx, ny, hn, hs, nu, nx, ny, vn, e, nx, ny);
      __lo_fusion_end(2);
    } else {
      flux_x<<<grid, block>>>(h, u, w, nx, ny);
      flux_y<<<grid, block>>>(h, v, hv, nx, ny);
      divergence<<<grid, block>>>(w, hv, dv, nx, ny);
      kinetic_energy<<<grid, block>>>(u, v, w, nx, ny);
      vorticity<<<grid, block>>>(u, v, f, q, nx, ny);
      update_u<<<grid, block>>>(u, v, h, b, w, q, un, dt, nx, ny);
      update_v<<<grid, block>>>(u, v, h, b, w, q, vn, dt, nx, ny);
      update_h<<<grid, block>>>(h, dv, hn, dt, nx, ny);
      diffuse_h<<<grid, block>>>(hn, hs, nu, nx, ny);
      energy<<<grid, block>>>(hs, un, vn, b, e, nx, ny);
    }
  }
}

#ifndef LAUNCHOPT_TESTBED_NO_MAIN
#include "driver.inc"
#endif

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
// launchopt: removed launches (T1/T2) are recorded in a queue of each persistent parent grid:
// LAUNCHOPT_PERSISTENT_QUEUE launches; beyond them the launching thread runs the child itself.
#ifndef LAUNCHOPT_PERSISTENT_QUEUE
#define LAUNCHOPT_PERSISTENT_QUEUE 65536u
#endif
// ---- launchopt runtime: launchopt/persistent.cuh ----
// launchopt device runtime: launch removal over a persistent parent grid
// (T1, CB* -> PB*, and T2, CK* -> PB*).
//
// The parent kernel runs as a grid no larger than the device holds at once
// (sized from the occupancy API), launched cooperatively so that a grid
// barrier cannot deadlock. Its blocks first run the original parent blocks
// in turn, their threads recording the child launches in a global queue of
// the parent; after a grid barrier the blocks take the recorded work
// dynamically: a whole child grid at a time (T2) or one child block at a
// time (T1). A launch that finds the queue full is run by its thread at
// once, so nothing depends on the device heap. Children here have
// independent threads (no barriers, shared memory or warp primitives), so a
// parent block runs a child block of any size in a loop over its threads.

#include <cooperative_groups.h>
#include <cstring>
#include <cuda_runtime.h>
#include <tuple>
#include <utility>

#ifndef LAUNCHOPT_PERSISTENT_QUEUE
#define LAUNCHOPT_PERSISTENT_QUEUE 65536u
#endif

#pragma nv_diag_suppress 177

namespace launchopt {
namespace persistent {
namespace {

// The configuration of a recorded launch. A record of a child is
// { LaunchShape shape; struct { <the child's parameters> } args; }.
struct LaunchShape {
  dim3 grid;
  dim3 block;
  unsigned sharedMemory;
};

// The launches the threads of one persistent parent grid recorded. A
// __device__ variable of the parent: zero when the module loads, and reset
// by the grid's last step for the next launch of the parent.
template <typename Record, unsigned Capacity> struct Queue {
  unsigned count;                   // launches recorded (those past Capacity ran in their thread)
  unsigned long long next;          // the next unit a block takes (a record, or a child block)
  unsigned long long subtasks;        // the units of work of the stored records
  unsigned long long first[Capacity]; // the first unit of each record
  // Storage, not Records: a record has no default constructor.
  alignas(Record) unsigned char records[Capacity * sizeof(Record)];
  __device__ Record &at(unsigned i) { return reinterpret_cast<Record *>(records)[i]; }
};

__device__ inline unsigned linearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ inline unsigned blockThreads() { return blockDim.x * blockDim.y * blockDim.z; }

__device__ inline unsigned long long extent(const dim3 &d) {
  return (unsigned long long)d.x * d.y * d.z;
}

__device__ inline uint3 unflatten(unsigned long long i, const dim3 &e) {
  return make_uint3((unsigned)(i % e.x), (unsigned)((i / e.x) % e.y),
                    (unsigned)(i / ((unsigned long long)e.x * e.y)));
}

// Called by a parent thread where it launched: keeps the launch for the
// grid; false when the queue is full, and then the thread runs it itself.
template <typename Record, unsigned Capacity>
__device__ bool record(Queue<Record, Capacity> &q, const Record &r) {
  unsigned i = atomicAdd(&q.count, 1u);
  if (i >= Capacity)
    return false;
  memcpy(&q.at(i), &r, sizeof(Record));
  return true;
}

// The original parent blocks, run in turn by the persistent blocks. Every
// thread of a block takes the same blocks, so the parent's own barriers
// hold; the barrier after each keeps its shared memory from being reused
// while a thread still reads it.
template <typename RunBlock>
__device__ void runParentBlocks(const dim3 &parentGrid, RunBlock runBlock) {
  unsigned long long blocks = extent(parentGrid);
  for (unsigned long long b = blockIdx.x; b < blocks; b += gridDim.x) {
    runBlock(unflatten(b, parentGrid));
    __syncthreads();
  }
}

// The next unit of work for the whole block, taken by its first thread.
template <typename Record, unsigned Capacity>
__device__ unsigned long long take(Queue<Record, Capacity> &q) {
  __shared__ unsigned long long taken;
  if (linearThread() == 0)
    taken = atomicAdd(&q.next, 1ull);
  __syncthreads();
  unsigned long long unit = taken;
  __syncthreads();
  return unit;
}

template <typename Record, typename RunThread>
__device__ void runChildBlock(const Record &r, unsigned long long b, RunThread &runThread) {
  uint3 block = unflatten(b, r.shape.grid);
  unsigned childThreads = (unsigned)extent(r.shape.block);
  for (unsigned t = linearThread(); t < childThreads; t += blockThreads())
    runThread(r, block, unflatten(t, r.shape.block));
}

// The units of work of a record: one per child block (T1), or the whole
// child grid as one (T2) unless it has more blocks than the persistent grid,
// when one block would run it for longer than the rest together (a wrapped
// count gives 2^27 blocks): then its blocks are shared like T1's.
template <typename Record>
__device__ unsigned long long unitsOf(const Record &r, bool childBlocksAsUnits) {
  unsigned long long blocks = extent(r.shape.grid);
  return childBlocksAsUnits || blocks > gridDim.x ? blocks : 1;
}

// Numbers the units of the stored records: the first unit of each record,
// an exclusive prefix sum computed by block 0.
template <typename Record, unsigned Capacity>
__device__ void numberUnits(Queue<Record, Capacity> &q, unsigned n, bool childBlocksAsUnits) {
  if (blockIdx.x != 0)
    return;
  __shared__ unsigned long long warpTotals[32];
  unsigned me = linearThread(), threads = blockThreads();
  unsigned chunk = (n + threads - 1) / threads;
  unsigned begin = me * chunk < n ? me * chunk : n, end = begin + chunk < n ? begin + chunk : n;
  unsigned long long mine = 0;
  for (unsigned i = begin; i < end; ++i)
    mine += unitsOf(q.at(i), childBlocksAsUnits);
  // Inclusive scan of the per-thread sums: within warps, then over warps.
  unsigned lane = me % 32, warp = me / 32, warps = (threads + 31) / 32;
  unsigned long long inclusive = mine;
  unsigned lanes = __activemask(); // a last warp may be partial
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned long long up = __shfl_up_sync(lanes, inclusive, d);
    if (lane >= d)
      inclusive += up;
  }
  if (lane == 31 || me == threads - 1)
    warpTotals[warp] = inclusive;
  __syncthreads();
  if (me == 0)
    for (unsigned w = 1; w < warps; ++w)
      warpTotals[w] += warpTotals[w - 1];
  __syncthreads();
  unsigned long long offset = inclusive - mine + (warp > 0 ? warpTotals[warp - 1] : 0);
  for (unsigned i = begin; i < end; ++i) {
    q.first[i] = offset;
    offset += unitsOf(q.at(i), childBlocksAsUnits);
  }
  if (me == 0)
    q.subtasks = warpTotals[warps - 1];
}

// After the parent's own work, reached by every thread of the grid: runs the
// recorded launches, the blocks taking units dynamically (T2: a whole child
// grid; T1: a child block), and resets the queue for the next launch of the
// parent. RunThread(record, blockIdx, threadIdx) runs one child thread.
template <typename Record, unsigned Capacity, typename RunThread>
__device__ void runRecorded(Queue<Record, Capacity> &q, bool childBlocksAsUnits,
                            RunThread runThread) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  grid.sync();
  unsigned n = q.count < Capacity ? q.count : Capacity;
  numberUnits(q, n, childBlocksAsUnits);
  grid.sync();
  unsigned long long units = q.subtasks;
  for (unsigned long long s = take(q); s < units; s = take(q)) {
    // The record whose units hold s: the last with first <= s.
    unsigned lo = 0, hi = n;
    while (hi - lo > 1) {
      unsigned mid = (lo + hi) / 2;
      if (q.first[mid] <= s)
        lo = mid;
      else
        hi = mid;
    }
    const Record &r = q.at(lo);
    unsigned long long blocks = extent(r.shape.grid);
    if (unitsOf(r, childBlocksAsUnits) == blocks) {
      runChildBlock(r, s - q.first[lo], runThread);
    } else {
      for (unsigned long long b = 0; b < blocks; ++b)
        runChildBlock(r, b, runThread);
    }
  }
  grid.sync();
  if (blockIdx.x == 0 && linearThread() == 0) {
    q.count = 0;
    q.next = 0;
    q.subtasks = 0;
  }
}

// Host side: launches the persistent kernel (whose first parameter is the
// original grid) cooperatively over as many blocks as the device holds at
// once, at most the original grid's. Where the device cannot launch it so
// (no cooperative launch, no block fits, an empty or invalid grid), the
// original kernel is launched as written: its launches are removed by its
// own threads (T4), and any launch error is the original's.
template <typename... Params, typename... Args>
void launch(void (*persistentKernel)(dim3, Params...), void (*original)(Params...), dim3 grid,
            dim3 block, size_t sharedMemory, cudaStream_t stream, Args &&...args) {
  std::tuple<dim3, Params...> values(grid, std::forward<Args>(args)...);
  unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
  int device = 0, cooperative = 0, sms = 0, perSm = 0;
  bool persistent = cudaGetDevice(&device) == cudaSuccess &&
                    cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device) ==
                        cudaSuccess &&
                    cooperative &&
                    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) ==
                        cudaSuccess &&
                    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                        &perSm, persistentKernel, (int)(block.x * block.y * block.z),
                        sharedMemory) == cudaSuccess &&
                    perSm > 0 && blocks > 0 && grid.y <= 65535u && grid.z <= 65535u;
  if (!persistent) {
    (void)cudaGetLastError(); // a failed query is not the launch's error
    std::apply([&](dim3, auto &...p) { original<<<grid, block, sharedMemory, stream>>>(p...); },
               values);
    return;
  }
  unsigned long long resident = (unsigned long long)perSm * sms;
  unsigned persistentBlocks = (unsigned)(blocks < resident ? blocks : resident);
  void *pointers[1 + sizeof...(Params)];
  std::apply(
      [&](auto &...v) {
        unsigned i = 0;
        ((pointers[i++] = (void *)&v), ...);
      },
      values);
  cudaLaunchCooperativeKernel((const void *)persistentKernel, dim3(persistentBlocks), block,
                              pointers, sharedMemory, stream);
}

} // namespace
} // namespace persistent
} // namespace launchopt
// ---- end of launchopt/persistent.cuh ----

// Bezier line tessellation, naive CUDA dynamic parallelism (after the CUDA
// sample used by KLAP and the DP-compiler paper): the parent thread of a line
// computes its point count from the curvature, allocates the line's vertex
// buffer with device-side cudaMalloc and launches a child grid with a thread
// per point. A second host-launched grid (which runs after the parent grid
// and all its children) sums and frees each line's buffer.
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 64;
constexpr int kChildBlock = 32;

__device__ unsigned int bt_failed_launches;

__global__ void bt_tessellate(BezierLine line, int n, float2* points) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float t = static_cast<float>(k) / static_cast<float>(n - 1);
  float a = (1.0f - t) * (1.0f - t), b = 2.0f * t * (1.0f - t), c = t * t;
  points[k] = make_float2(a * line.x[0] + b * line.x[1] + c * line.x[2], a * line.y[0] + b * line.y[1] + c * line.y[2]);
}

// launchopt: one thread of 'bt_tessellate', run by a parent thread; the locals below
// shadow the built-in index variables with that thread's values.
static __device__ void __lo_ithread_bt_tessellate(BezierLine line, int n, float2* points, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float t = static_cast<float>(k) / static_cast<float>(n - 1);
  float a = (1.0f - t) * (1.0f - t), b = 2.0f * t * (1.0f - t), c = t * t;
  points[k] = make_float2(a * line.x[0] + b * line.x[1] + c * line.x[2], a * line.y[0] + b * line.y[1] + c * line.y[2]);
}
}

// launchopt: every thread of a 'bt_tessellate' grid, one after another (serial version).
static __device__ void __lo_inline_bt_tessellate(BezierLine line, int n, float2* points, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by)
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx)
              __lo_ithread_bt_tessellate(line, n, points, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
}

// launchopt: a launch of 'bt_tessellate' recorded by a persistent parent grid (T1/T2).
struct __lo_grec_bt_tessellate {
  launchopt::persistent::LaunchShape shape;
  struct Arguments {
    BezierLine line;
    int n;
    float2* points;
    __device__ Arguments(BezierLine line, int n, float2* points) : line(line), n(n), points(points) {}
  } args;
};

__global__ void bt_lines(const BezierLine* lines, int num_lines, int* num_points, float2** buffers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_lines) return;
  BezierLine line = lines[i];
  int n = bt_num_points(line);
  num_points[i] = n;
  float2* points = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&points), sizeof(float2) * n) != cudaSuccess) {
    buffers[i] = nullptr;
    atomicAdd(&bt_failed_launches, 1u);
    return;
  }
  buffers[i] = points;
  { // launchopt: launch of 'bt_tessellate' removed (T4): this thread runs the child grid
    const auto __lo_n1_x = (n);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
#ifdef __CUDACC_RDC__
    } else if (!((long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x)) {
      // not the ceiling of its count (a wrapped count): launched as written
      bt_tessellate<<<__lo_grid1, __lo_block1>>>(line, n, points);
#endif
    } else {
      __lo_inline_bt_tessellate(line, n, points, __lo_grid1, __lo_block1);
    }
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&bt_failed_launches, 1u);
}

// launchopt: the persistent parent grid of 'bt_lines' (T2, CK* -> PB*): the launches its threads record,
// run after a grid barrier by any of its blocks, a whole child grid at a time.
__device__ launchopt::persistent::Queue<__lo_grec_bt_tessellate, LAUNCHOPT_PERSISTENT_QUEUE> __lo_pq_bt_lines;

// launchopt: one block of the original 'bt_lines' grid, run by a block of the persistent grid;
// the locals below shadow the built-in index variables with the original block's values.
static __device__ void __lo_pblock_bt_lines(const BezierLine* lines, int num_lines, int* num_points, float2** buffers, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
    const dim3 __lo_blockDim, const dim3 __lo_gridDim)
{
  const uint3 blockIdx = __lo_blockIdx;
  const uint3 threadIdx = __lo_threadIdx;
  const dim3 blockDim = __lo_blockDim;
  const dim3 gridDim = __lo_gridDim;
  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;
  {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_lines) return;
  BezierLine line = lines[i];
  int n = bt_num_points(line);
  num_points[i] = n;
  float2* points = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&points), sizeof(float2) * n) != cudaSuccess) {
    buffers[i] = nullptr;
    atomicAdd(&bt_failed_launches, 1u);
    return;
  }
  buffers[i] = points;
  { // launchopt: launch of 'bt_tessellate' removed (T2): recorded for the persistent parent grid, which runs it after its own work
    const auto __lo_n1_x = (n);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    if (!launchopt::removal::launchable(__lo_grid1, __lo_block1)) {
      // the launch would fail: its child never runs
    } else {
      const __lo_grec_bt_tessellate __lo_r1 = {{__lo_grid1, __lo_block1, (unsigned)(0)}, __lo_grec_bt_tessellate::Arguments(line, n, points)};
      if (!launchopt::persistent::record(__lo_pq_bt_lines, __lo_r1))
        __lo_inline_bt_tessellate(__lo_r1.args.line, __lo_r1.args.n, __lo_r1.args.points, __lo_r1.shape.grid, __lo_r1.shape.block); // the queue is full: this thread runs it now
    }
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&bt_failed_launches, 1u);
}
}

__global__ void __lo_persistent_bt_lines(const dim3 __lo_parentGrid, const BezierLine* lines, int num_lines, int* num_points, float2** buffers)
{
  launchopt::persistent::runParentBlocks(__lo_parentGrid, [&](uint3 __lo_block) {
    __lo_pblock_bt_lines(lines, num_lines, num_points, buffers, __lo_block, threadIdx, blockDim, __lo_parentGrid);
  });
  launchopt::persistent::runRecorded(__lo_pq_bt_lines, false,
      [&](const __lo_grec_bt_tessellate &__lo_rec, uint3 __lo_block, uint3 __lo_thread) {
        __lo_ithread_bt_tessellate(__lo_rec.args.line, __lo_rec.args.n, __lo_rec.args.points, __lo_block, __lo_thread, __lo_rec.shape.block, __lo_rec.shape.grid);
      });
}

__global__ void bt_sum_and_free(int num_lines, const int* num_points, float2** buffers, float* sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_lines || buffers[i] == nullptr) return;
  float s = 0.0f;
  for (int k = 0; k < num_points[i]; ++k) s += buffers[i][k].x + buffers[i][k].y;
  sums[i] = s;
  cudaFree(buffers[i]);
}

}  // namespace

int bt_run(const BezierLine* d_lines, int num_lines, int* d_num_points, float* d_line_sums) {
  size_t need = static_cast<size_t>(num_lines) + 1024, have = 0;
  if (cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess) return -1;
  if (have < need && cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, need) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  size_t heap = static_cast<size_t>(num_lines) * (sizeof(float2) * kBtMaxPoints + 256) * 2;
  if (cudaDeviceGetLimit(&have, cudaLimitMallocHeapSize) != cudaSuccess) return -1;
  if (have < heap && cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap) != cudaSuccess)
    return -static_cast<int>(cudaGetLastError());
  unsigned int zero = 0, failed = 0;
  cudaMemcpyToSymbol(bt_failed_launches, &zero, sizeof zero);
  float2** buffers = nullptr;
  cudaMalloc(&buffers, sizeof(float2*) * num_lines);
  const int blocks = (num_lines + kParentBlock - 1) / kParentBlock;
  launchopt::persistent::launch(__lo_persistent_bt_lines, bt_lines, blocks, kParentBlock, 0, 0, d_lines, num_lines, d_num_points, buffers); // launchopt: the persistent grid of 'bt_lines' (launch removal)
  bt_sum_and_free<<<blocks, kParentBlock>>>(num_lines, d_num_points, buffers, d_line_sums);
  cudaMemcpyFromSymbol(&failed, bt_failed_launches, sizeof failed);
  cudaFree(buffers);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return -static_cast<int>(err);
  return static_cast<int>(failed);
}

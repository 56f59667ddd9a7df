// launchopt: a device-side launch runs when its child has at least
// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread
// (the report's serial-pooling says where the lanes of a warp share their
// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.
#ifndef LAUNCHOPT_THRESHOLD
#define LAUNCHOPT_THRESHOLD 256
#endif

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
static __device__ void __lo_thread_sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ bool __lo_thread_exit_sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ void __lo_serial_sp_gather_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int v, const int* satisfied, const unsigned* eta, unsigned* toward_true, unsigned* toward_false, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_sp_gather_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, v, satisfied, eta, toward_true, toward_false, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_sp_gather_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, v, satisfied, eta, toward_true, toward_false, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void sp_gather(SatDev f, int first, const int* value, const int* satisfied, const unsigned* eta,
                          unsigned* toward_true, unsigned* toward_false) {
  int v = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= f.num_vars || value[v] >= 0) return;
  int begin = f.var_start[v], end = f.var_start[v + 1];
  if (end == begin) return;
  { // launchopt: thresholded launch of 'sp_gather_occurrences'
    const auto __lo_n1_x = (end - begin);
    const dim3 __lo_grid1 = (__lo_n1_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block1 = kChildBlock;
    const long long __lo_threads1 = (long long)(__lo_n1_x) * (long long)__lo_grid1.y * __lo_block1.y * (long long)__lo_grid1.z * __lo_block1.z;
    const bool __lo_fits1 = (long long)__lo_grid1.x * __lo_block1.x < (long long)(__lo_n1_x) + __lo_block1.x;
    if (__lo_threads1 >= LAUNCHOPT_THRESHOLD || !__lo_fits1)
      sp_gather_occurrences<<<__lo_grid1, __lo_block1>>>(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, v, satisfied, eta, toward_true, toward_false);
    else
      __lo_serial_sp_gather_occurrences(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, v, satisfied, eta, toward_true, toward_false, __lo_grid1, __lo_block1);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&sp_failed_launches, 1u);
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
static __device__ void __lo_thread_sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ bool __lo_thread_exit_sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied, const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,
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
static __device__ void __lo_serial_sp_satisfy_occurrences(const int* occ_literal, const int* lit_sign, const int* lit_clause, int occ_begin, int occ_end, int val, int* satisfied, const dim3 __lo_gridDim, const dim3 __lo_blockDim)
{
  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)
    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by) {
      bool __lo_xEnded = false;
      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x && !__lo_xEnded; ++__lo_bx)
        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)
          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)
            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx) {
              if (__lo_thread_exit_sp_satisfy_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, val, satisfied, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim)) {
                __lo_xEnded = true;
                break;
              }
              __lo_thread_sp_satisfy_occurrences(occ_literal, lit_sign, lit_clause, occ_begin, occ_end, val, satisfied, make_uint3(__lo_bx, __lo_by, __lo_bz),
                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);
            }
    }
}

__global__ void sp_propagate(SatDev f, int first, const int* fixed_now, const int* value, int* satisfied) {
  int v = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= f.num_vars || !fixed_now[v]) return;
  int begin = f.var_start[v], end = f.var_start[v + 1];
  if (end == begin) return;
  { // launchopt: thresholded launch of 'sp_satisfy_occurrences'
    const auto __lo_n2_x = (end - begin);
    const dim3 __lo_grid2 = (__lo_n2_x + kChildBlock - 1) / kChildBlock;
    const dim3 __lo_block2 = kChildBlock;
    const long long __lo_threads2 = (long long)(__lo_n2_x) * (long long)__lo_grid2.y * __lo_block2.y * (long long)__lo_grid2.z * __lo_block2.z;
    const bool __lo_fits2 = (long long)__lo_grid2.x * __lo_block2.x < (long long)(__lo_n2_x) + __lo_block2.x;
    if (__lo_threads2 >= LAUNCHOPT_THRESHOLD || !__lo_fits2)
      sp_satisfy_occurrences<<<__lo_grid2, __lo_block2>>>(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, value[v], satisfied);
    else
      __lo_serial_sp_satisfy_occurrences(f.occ_literal, f.lit_sign, f.lit_clause, begin, end, value[v], satisfied, __lo_grid2, __lo_block2);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&sp_failed_launches, 1u);
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

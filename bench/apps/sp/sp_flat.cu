// Survey propagation without dynamic parallelism: the parent thread of each
// free variable sums its occurrences' surveys in a loop, and the parent
// thread of each variable fixed this round marks its satisfied clauses in a
// loop (sp_cdp.cu launches a child grid for each of those loops).
#include <cuda_runtime.h>

#include "../../common/bench_api.h"

namespace {

constexpr int kParentBlock = 256;

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

__global__ void sp_gather(SatDev f, const int* value, const int* satisfied, const unsigned* eta,
                          unsigned* toward_true, unsigned* toward_false) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= f.num_vars || value[v] >= 0) return;
  unsigned t = 0, fl = 0;
  for (int o = f.var_start[v]; o < f.var_start[v + 1]; ++o) {
    int k = f.occ_literal[o];
    if (satisfied[f.lit_clause[k]]) continue;
    (f.lit_sign[k] ? t : fl) += eta[k];
  }
  toward_true[v] = t;
  toward_false[v] = fl;
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

__global__ void sp_propagate(SatDev f, const int* fixed_now, const int* value, int* satisfied) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= f.num_vars || !fixed_now[v]) return;
  for (int o = f.var_start[v]; o < f.var_start[v + 1]; ++o) {
    int k = f.occ_literal[o];
    if (f.lit_sign[k] == value[v]) satisfied[f.lit_clause[k]] = 1;
  }
}

}  // namespace

int sp_run(const SatDev& f, int* d_value, int* d_satisfied) {
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
    sp_gather<<<var_blocks, kParentBlock>>>(f, d_value, d_satisfied, eta, toward_true, toward_false);
    sp_decimate<<<var_blocks, kParentBlock>>>(f.num_vars, round, toward_true, toward_false, pos, neg, d_value,
                                              fixed_now);
    sp_propagate<<<var_blocks, kParentBlock>>>(f, fixed_now, d_value, d_satisfied);
  }
  cudaFree(pos);
  cudaFree(neg);
  cudaFree(toward_true);
  cudaFree(toward_false);
  cudaFree(fixed_now);
  cudaFree(eta);
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : -static_cast<int>(err);
}

#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_GPUDESCRIPTION_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_GPUDESCRIPTION_H

#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// The architecture characteristics the projection model needs (paper
// Table IV), read from a GPU description file (gpus/*.json).
struct GpuDescription {
  std::string Name;
  unsigned Multiprocessors = 0;          // SMX
  unsigned RegistersPerMultiprocessor = 0; // R_SMX, in 32-bit registers
  unsigned SharedMemoryPerMultiprocessor = 0; // Sh_SMX, bytes
  unsigned MaxRegistersPerThread = 255;  // R_Max
  unsigned MaxThreadsPerMultiprocessor = 2048;
  unsigned MaxBlocksPerMultiprocessor = 32;
  unsigned RegisterAllocationUnit = 8;   // registers are granted per thread in these steps
  double MemoryBandwidth = 0;            // GMEM_BW, bytes/s, measured
  // RegFac of eq. (4): the fraction of a stencil neighbourhood the compiler
  // keeps in distinct registers.
  double RegisterReuseFactor = 0.85;
  // Bytes of padding per byte of shared memory against bank conflicts
  // (B_conf of eq. 7): 1/32 for 32 banks.
  double BankConflictPadding = 1.0 / 32;
  // The SMEM blocking factor B_Sh (eq. 8) at which a multiprocessor has
  // enough sites in flight to saturate device bandwidth; below it the
  // projected bandwidth falls in proportion (our reading of eq. 9's B_eff).
  double SaturatingBlockingFactor = 512;
  // Seconds a block waits at a __syncthreads() between fused bodies for its
  // warps' outstanding loads: about one GMEM latency (an estimate, not
  // measured). Charged to complex fusions with halo layers.
  double BarrierLatency = 500e-9;
  // Bytes/s the L2 cache delivers to all multiprocessors: what the loads of
  // values recomputed on chip (temporal fusion's halo cone) cost instead of
  // GMEM traffic. An estimate for the H100, not measured.
  double CacheBandwidth = 7e12;
  // Bytes/s of loads of recomputed stencil evaluations, as temporal fusion's
  // register recomputation runs them: each evaluation finds its neighbour's
  // block and thread (a 64-bit division and remainder per axis) and tests its
  // bounds, so it is bound by instruction issue, far below the L1 caches'
  // 30 TB/s. Measured on the H100 from heat3d fused over 2 steps
  // (h100.json names the run).
  double RecomputeBandwidth = 4.6e12;
  // Instructions per second all threads together issue in a kernel that is
  // bound by issue, counted as InstructionEstimate.h counts them; 0: not
  // modelled. Fusion's time of a new kernel is the larger of its traffic's
  // and its instructions' (a producer recomputed at neighbours repeats its
  // instructions).
  double InstructionRate = 0;
};

llvm::Expected<GpuDescription> loadGpuDescription(const std::string &Path);
llvm::Expected<GpuDescription> parseGpuDescription(llvm::StringRef Json);

// The description shipped with the tool for the H100 (gpus/h100.json).
std::string defaultGpuDescriptionPath();

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_PROJECTIONMODEL_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_PROJECTIONMODEL_H

#include "FusionGraphs.h"
#include "GpuDescription.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace launchopt {

// An array a member computed over halo layers produces and later members
// read at neighbours, as code generation carries it (FusionOnChip.h).
struct HaloArrayPath {
  unsigned Array = 0;
  unsigned Radius = 0;    // the producer's halo layers
  bool SharedTile = false; // else GMEM: producer stores its halo sites too
  unsigned TileBytes = 0; // per block, SharedTile only
  // Instead of a tile: the producer runs again in registers at this many
  // neighbour sites per thread (FusionRecompute.h); 0 when it does not.
  unsigned RecomputedNeighbours = 0;
  std::string Why;        // GMEM only: why no tile
};

// The projected upper bound of one new kernel F (paper §IV, eqs. 2-10), and
// why F is not a valid new kernel when it is not (paper Fig. 4).
struct NewKernelProjection {
  bool Feasible = true;
  std::string Infeasibility;
  std::vector<unsigned> Members; // original kernels, launch order
  std::vector<unsigned> Pivot;   // F^Pivot: arrays reused across members
  // Per member: the stencil radius its body is computed over beyond the
  // block's own sites, so that later members read its results at their
  // neighbours (complex fusion's redundant halo layers, §II-D2).
  std::vector<unsigned> MemberHalo;
  bool Complex = false;       // order-of-execution constraints inside F
  unsigned HaloPoints = 0;    // Hal: extra sites per block, widest radius
  unsigned HaloPerThread = 0; // H_TH = ceil(Hal / Thr)
  unsigned Registers = 0;     // R_T, eq. (6)
  unsigned BlocksPerMultiprocessor = 0; // Blocks_SMX, eqs. (3), (7)
  double SharedMemoryPerBlock = 0;      // bytes, eq. (7)
  double BlockingFactor = 0;  // B_Sh, eq. (8)
  double Efficiency = 0;      // B_eff in (0, 1]
  double Bytes = 0;           // GMEM traffic of F including halo work
  double ProjectedSeconds = 0; // T_pro, eq. (10)
  double OriginalSum = 0;      // F^Sigma

  // The halo path, for F with halo layers (HaloPoints > 0); the terms below
  // add up to ProjectedSeconds and Bytes.
  std::vector<HaloArrayPath> HaloArrays;
  unsigned TileSharedMemory = 0;  // bytes per block of all tiles
  double ReuseBytes = 0;          // loads and stores at own sites after reuse
  double HaloRingBytes = 0;       // members' loads and stores at halo sites
  double GlobalRoundTripBytes = 0; // GMEM fallback: halo stores, consumer reloads
  // Two versions of an array that meet across threads of F live in two
  // buffers: the earlier one a copy of the allocation made before F runs.
  double RenamingCopyBytes = 0;
  // Scratch arrays F produces and reads on chip only: it stores them not at
  // all (DeadStores.h), and ReuseBytes leaves their stores out.
  std::vector<unsigned> StoresLeftOut;
  // Issue time of F's instructions (GpuDescription::InstructionRate); F's
  // time is the larger of it and MemorySeconds, its traffic's.
  double InstructionSeconds = 0;
  double MemorySeconds = 0;
  unsigned Barriers = 0;          // __syncthreads() between bodies
  double BarrierSeconds = 0;
  double seconds(double TrafficBytes) const;
  // The renaming copies run before F and do not overlap its instructions:
  // F is bound by them when they outlast its own traffic.
  double copySeconds() const { return seconds(RenamingCopyBytes); }
  bool boundByInstructions() const { return InstructionSeconds > MemorySeconds - copySeconds(); }
};

// Evaluates candidate new kernels from the original kernels' metadata and a
// GPU description, without any code (the paper's codeless projection).
//
// Our reading of eqs. (9) and (10) for memory-bound kernels: the work Fl is
// counted in words moved through GMEM (one operation per word, the balance
// eq. 9 divides by), so T_pro = bytes / (B_eff * GMEM_BW), where bytes are
// the loads and stores left after reuse plus the halo sites' extra traffic,
// and B_eff = min(1, B_Sh / B_Sh at saturation) is how much of the device
// bandwidth the occupancy left by F's registers and shared memory sustains.
//
// A new kernel with halo layers is projected for the code the generator
// writes (paper §II-D2 as FusionOnChip builds it): the halo ring's loads and
// stores of each member computed over halo layers, the tiles' shared memory
// in the capacity and occupancy terms (instead of eq. 7's staging of every
// pivot array, which the generator keeps in registers), GMEM round trips of
// neighbour dependences without a tile, and one memory latency per barrier.
// The halo work is charged as traffic, so eq. (8) does not divide the
// blocking factor by 1 + H_TH again. Without halo layers nothing changes.
class ProjectionModel {
public:
  // OnChip false: the generator keeps every dependence in GMEM (--on-chip=false).
  ProjectionModel(const FusionProblem &P, const FusionGraphs &G, const GpuDescription &Gpu,
                  bool OnChip = true);

  // The most neighbour sites code generation recomputes a halo producer at
  // instead of filling tiles (--recompute-neighbours; 0: always tiles).
  void setRecomputedNeighbours(unsigned N) { MaxRecomputed = N; }

  NewKernelProjection project(llvm::ArrayRef<unsigned> Members) const;
  // P(K): the measured time when the problem carries one, else projected.
  double originalSeconds(unsigned Kernel) const { return Original[Kernel]; }

  const FusionProblem &problem() const { return P; }
  const FusionGraphs &graphs() const { return G; }

private:
  const FusionProblem &P;
  const FusionGraphs &G;
  const GpuDescription &Gpu;
  bool OnChip;
  unsigned MaxRecomputed = 2;
  std::vector<double> Original;
  std::vector<std::vector<const KernelDependence *>> Outgoing;

  void projectResources(NewKernelProjection &F) const;
  void projectHaloPath(NewKernelProjection &F) const;
  void projectRecomputation(NewKernelProjection &F) const;
  std::vector<unsigned> storesLeftOut(const NewKernelProjection &F) const;
  double instructionSeconds(const NewKernelProjection &F) const;
};

} // namespace launchopt

#endif

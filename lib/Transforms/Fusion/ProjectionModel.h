#ifndef LAUNCHOPT_TRANSFORMS_FUSION_PROJECTIONMODEL_H
#define LAUNCHOPT_TRANSFORMS_FUSION_PROJECTIONMODEL_H

#include "FusionGraphs.h"
#include "GpuDescription.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace launchopt {

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
class ProjectionModel {
public:
  ProjectionModel(const FusionProblem &P, const FusionGraphs &G, const GpuDescription &Gpu);

  NewKernelProjection project(llvm::ArrayRef<unsigned> Members) const;
  // P(K): the measured time when the problem carries one, else projected.
  double originalSeconds(unsigned Kernel) const { return Original[Kernel]; }

  const FusionProblem &problem() const { return P; }
  const FusionGraphs &graphs() const { return G; }

private:
  const FusionProblem &P;
  const FusionGraphs &G;
  const GpuDescription &Gpu;
  std::vector<double> Original;
  std::vector<std::vector<const KernelDependence *>> Outgoing;

  double ownBytes(unsigned Kernel) const;
  void projectResources(NewKernelProjection &F) const;
};

} // namespace launchopt

#endif

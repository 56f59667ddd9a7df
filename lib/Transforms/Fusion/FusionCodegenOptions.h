#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONCODEGENOPTIONS_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONCODEGENOPTIONS_H

// How a fused source is generated: read by the kernel side (FusionCodegen)
// and the host side (FusionHostCode) alike.

#include "FusionRenaming.h"
#include "Model/GpuDescription.h"

namespace launchopt {

struct FusionCodegenOptions {
  // Wrap every new launch in event timing compiled in with
  // -DLAUNCHOPT_FUSION_TIMING (per-new-kernel times for eq. 12).
  bool TimingHooks = false;
  // Keep shared arrays in registers and shared-memory tiles where the
  // shapes allow (FusionOnChip.h); false: every dependence through GMEM.
  bool OnChip = true;
  // A halo producer whose results are read at no more than this many
  // neighbour sites is recomputed there in registers instead of filling a
  // shared-memory tile (0: always tiles).
  unsigned MaxRecomputedNeighbours = 2;
  // The renamed buffers the plan relies on (FusionRenaming.h); null when
  // nothing is renamed.
  const RenamingPlan *Renaming = nullptr;
  // Temporal fusion of a kernel launched alone in a time loop with
  // ping-pong buffers (FusionTemporal.h): off, or the steps per launch (0:
  // the projection on Gpu chooses up to MaxTemporalSteps).
  bool Temporal = true;
  unsigned TemporalSteps = 0;
  unsigned MaxTemporalSteps = 4;
  bool TemporalTiles = false; // shared-memory tiles instead of registers
  const GpuDescription *Gpu = nullptr;
};

} // namespace launchopt

#endif

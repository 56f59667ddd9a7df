#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONTEMPORAL_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONTEMPORAL_H

// Temporal fusion (issue 21 item 5): a stencil kernel that is the only
// launch of a counted loop's body, whose input and output buffers the body
// swaps after it (`std::swap(in, out)`), runs k steps per launch. The new
// kernel computes step j at a site from step j - 1 at the neighbour sites the
// stencil reads, recomputed in registers down to the input (a halo widened
// by the stencil's reach per step); only the last step is stored. It reads
// the input buffer and writes the output buffer alone, so the group's
// result lands where one step's would, and the loop swaps once per group:
// the iterations after a group's first launch nothing and do not swap. The
// last N mod k steps run the original kernel. The buffer passed as output
// then holds another step's values after the loop than before, so it must
// not be used there.

#include "FusionExtraction.h"
#include "Model/GpuDescription.h"
#include "Model/TemporalProjection.h"
#include "llvm/Support/Error.h"
#include <set>
#include <string>

namespace launchopt {

struct TemporalFusion {
  TemporalProjection Projection;
  std::string Kernel;   // the new kernel's name
  std::string Device;   // its definitions, before the host function
  std::string Launch;   // replaces the launch statement
  unsigned SwapOffset = 0; // where the swap statement starts (main file)
  std::string SwapGuard;   // inserted there
  std::string Message;     // the remark
};

// Launch L of X, fused over Steps steps (0: the projection chooses up to
// MaxSteps); the error says why not (empty when the launch is in no
// loop's body). Emitted names the kernels whose
// shared definitions the output already has (updated); Index numbers the
// host locals.
// Tiles: the steps before the last computed in shared-memory tiles over the
// block widened by their remaining reach, a barrier between steps, instead
// of recomputed per site in registers.
llvm::Expected<TemporalFusion> fuseOverTime(clang::ASTContext &Ctx, const FusionExtraction &X,
                                            unsigned L, unsigned Steps, unsigned MaxSteps,
                                            bool Tiles, const GpuDescription &Gpu, unsigned Index,
                                            std::set<std::string> &Emitted);

} // namespace launchopt

#endif

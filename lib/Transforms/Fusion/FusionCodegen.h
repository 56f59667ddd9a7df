#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONCODEGEN_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONCODEGEN_H

#include "FusionExtraction.h"
#include "FusionPlan.h"

namespace launchopt {

struct FusionCodegenOptions {
  // Wrap every new launch in event timing compiled in with
  // -DLAUNCHOPT_FUSION_TIMING (per-new-kernel times for eq. 12).
  bool TimingHooks = false;
};

// Code generation from a plan (paper §II-D): each fused original kernel gets
// a __device__ copy of its body taking the block and thread index it runs
// for; a new kernel calls the copies in order. Simple fusion: the bodies run
// back to back on the same threads, so shared read-only data is read once
// into the cache and reused. Complex fusion: a member whose results later
// members read at a neighbour runs over its halo layers too (redundant halo
// computation, the neighbours' sites, before a __syncthreads()), so that
// every value a block reads was produced by the block itself. The host
// launch sequence is rewritten in the plan's order.
PassResult generateFusedSource(clang::ASTContext &Ctx, const FusionExtraction &X,
                               const FusionPlan &Plan, const FusionCodegenOptions &Options);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONCODEGEN_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONCODEGEN_H

#include "FusionCodegenOptions.h"
#include "FusionExtraction.h"
#include "FusionOnChipPlan.h"
#include "Model/FusionPlan.h"
#include <optional>

namespace launchopt {

// Code generation from a plan (paper §II-D): each fused original kernel gets
// a __device__ copy of its body taking the block and thread index it runs
// for; a new kernel calls the copies in order. Simple fusion: the bodies run
// back to back on the same threads; a value at the thread's own site that
// several bodies read (or one produces and a later one reads) is held in a
// register (FusionOnChip.h). Complex fusion: a member whose results later
// members read at a neighbour runs over its halo layers too (redundant halo
// computation, the neighbours' sites, before a __syncthreads()), into a
// __shared__ tile the later members read, or through GMEM where no tile
// fits. The host launch sequence is rewritten in the plan's order; a
// segment that renames arrays gets its buffers before the new launches and
// copies the final versions back after them, and runs its original launches
// when a buffer cannot be had.
// Where each new kernel keeps its shared arrays (registers, shared-memory
// tiles, or GMEM), one line per new kernel of the plan, goes to
// OnChipSummary.
PassResult generateFusedSource(clang::ASTContext &Ctx, const FusionExtraction &X,
                               const FusionPlan &Plan, const FusionCodegenOptions &Options,
                               std::vector<std::string> &OnChipSummary);

// The kernel's text as a __device__ function that runs one thread's work
// for a given block and thread index (shadowing the built-ins), with extra
// parameters before the indices and Edits (sorted, in offsets of the
// kernel's file) applied to the body, and its tiles that only cache an array
// read from the array (FusionTileCaches.h); nothing for a template, a
// kernel from a macro or one without a body.
std::optional<std::string> deviceBodyCopy(const clang::ASTContext &Ctx,
                                          const clang::FunctionDecl &K, const std::string &Name,
                                          const std::string &ExtraParams,
                                          const std::vector<BodyEdit> &Edits);

} // namespace launchopt

#endif

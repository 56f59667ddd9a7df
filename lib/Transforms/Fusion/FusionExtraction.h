#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONEXTRACTION_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONEXTRACTION_H

#include "Analysis/LaunchSites.h"
#include "Analysis/ParameterAccess.h"
#include "Model/FusionProblem.h"
#include "Transforms/PassResult.h"

namespace launchopt {

struct FusionExtractionOptions {
  // The host function whose launch sequence is fused; empty: the host
  // function with the most launches.
  std::string Function;
  // Stencil sites per launch for the projection (the grid size is a run-time
  // value): the problem size the plan is made for.
  double Sites = 8192.0 * 8192.0;
};

// One host launch of the sequence, as the problem's original kernel of the
// same index.
struct ExtractedLaunch {
  const LaunchSite *Site = nullptr;
  FileRange Statement;             // the launch statement with its ';'
  KernelAccess Access;
  // Per written argument: the allocation (index into Allocations) for a
  // pointer parameter the kernel subscripts, or -1.
  std::vector<int> ArgumentAllocation;
  // The block is a constant the launch names (its shape, in the problem's
  // BlockDim, can lay out shared-memory tiles).
  bool ConstantBlock = false;
};

struct FusionExtraction {
  FusionProblem Problem;
  std::vector<ExtractedLaunch> Launches;
  std::vector<const clang::VarDecl *> Allocations; // parallel to Problem.Arrays
  const clang::FunctionDecl *Host = nullptr;
  std::vector<LaunchRemark> Remarks; // launches left out of the problem, and why
};

// Extraction (issue 5 step 1): the ordered host launches of one function,
// their array arguments resolved to the variables holding the allocations,
// and per kernel the read/write sets with offsets. Statements between two
// launches (copies, stream changes, anything else) separate segments.
FusionExtraction extractFusionProblem(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const FusionExtractionOptions &Options);

} // namespace launchopt

#endif

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
  // What code generation writes for this launch in the host function: its
  // arguments, grid, block and whole statement, with a wrapper's parameters
  // replaced by the caller's arguments when the launch is inlined from one
  // (an argument that cannot be written is empty).
  std::vector<std::string> ArgumentText;
  std::string GridText, BlockText, StatementText;
  // The host wrapper the launch was inlined from (empty: the host function's
  // own); Statement is then the call of the wrapper in the host function,
  // shared by the wrapper's launches.
  std::string Wrapper;
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

// Extraction (issue 5 step 1): the ordered host launches of one function
// (through the host wrappers it calls, and inside its loops and branches,
// each body a sequence of its own: issue 21),
// their array arguments resolved to the variables holding the allocations,
// and per kernel the read/write sets with offsets. Statements between two
// launches (copies, stream changes, anything else) separate segments.
FusionExtraction extractFusionProblem(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const FusionExtractionOptions &Options);

} // namespace launchopt

#endif

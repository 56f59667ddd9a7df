#ifndef LAUNCHOPT_TRANSFORMS_COARSEN_COARSENPASS_H
#define LAUNCHOPT_TRANSFORMS_COARSEN_COARSENPASS_H

#include "Analysis/LaunchSites.h"
#include "Transforms/LaunchPass.h"
#include "Transforms/PassResult.h"

namespace launchopt {

struct CoarsenOptions {
  // Default of the LAUNCHOPT_CFACTOR macro the output defines.
  unsigned DefaultFactor = 4;
  // --aggregate follows in the pipeline: a child whose own launches would
  // move into a per-block function is left as written.
  bool AggregationFollows = false;
};

// Coarsening (paper §IV): a device-side launch of a child runs a coarsened
// copy of it, each block of which runs LAUNCHOPT_CFACTOR original blocks in
// turn; the launch passes the original grid.
class CoarsenPass : public LaunchPass {
public:
  explicit CoarsenPass(CoarsenOptions Options) : Options(Options) {}
  PassResult run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const override;
  llvm::Error acceptChildOfOtherFiles(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const clang::FunctionDecl &Child) const override;

private:
  CoarsenOptions Options;
};

} // namespace launchopt

#endif

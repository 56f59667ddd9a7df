#ifndef LAUNCHOPT_TRANSFORMS_THRESHOLD_THRESHOLDPASS_H
#define LAUNCHOPT_TRANSFORMS_THRESHOLD_THRESHOLDPASS_H

#include "Analysis/LaunchSites.h"
#include "Transforms/LaunchPass.h"
#include "Transforms/PassResult.h"

namespace launchopt {

struct ThresholdOptions {
  // Default of the LAUNCHOPT_THRESHOLD macro the output defines; a build
  // overrides it with -DLAUNCHOPT_THRESHOLD=N.
  // 256 had the best geometric-mean speedup over the three H100 differential
  // programs of test/gpu (results/threshold-h100.log).
  unsigned DefaultThreshold = 256;
  // Serialize launches that follow another launch into the same stream from
  // the same parent thread (they are then assumed not to depend on each other).
  bool AssumeIndependentChildren = false;
};

// Thresholding (paper §III): a device-side launch runs only when the child
// has at least LAUNCHOPT_THRESHOLD threads; otherwise the parent thread runs
// a serial copy of the child.
class ThresholdPass : public LaunchPass {
public:
  explicit ThresholdPass(ThresholdOptions Options) : Options(Options) {}
  PassResult run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const override;
  llvm::Error acceptChildOfOtherFiles(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const clang::FunctionDecl &Child) const override;

private:
  ThresholdOptions Options;
};

} // namespace launchopt

#endif

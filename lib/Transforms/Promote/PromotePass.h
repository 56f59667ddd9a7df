#ifndef LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTEPASS_H
#define LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTEPASS_H

#include "Analysis/LaunchSites.h"
#include "Transforms/LaunchPass.h"
#include "Transforms/PassResult.h"
#include "llvm/Support/Error.h"

namespace launchopt {

struct PromoteOptions {
  // Successors launched together (the LAUNCHOPT_PROMOTE_POOL default the
  // output defines): 1 is basic promotion (P), more is promotion with
  // aggregation (PA:<N>).
  unsigned PoolSize = 1;
  // PO, PAO:<N>: the start of a successor's body that does not depend on its
  // predecessor runs before the release (found by analysis).
  bool Overlap = false;
};

// Parses the flag's value: "" or "P" (basic), "PA:<N>" (pools of N), "PO"
// and "PAO:<N>" (the same with overlap).
llvm::Expected<PromoteOptions> parsePromoteMode(const std::string &Text);

// Launch promotion (KLAP §III-A/B): a kernel that relaunches itself as a
// single block from one thread at its end launches that successor at its
// start instead; the successor waits for the arguments and the release.
class PromotePass : public LaunchPass {
public:
  explicit PromotePass(PromoteOptions Options) : Options(Options) {}
  PassResult run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const override;
  // A kernel of another file is never the launching kernel itself.
  llvm::Error acceptChildOfOtherFiles(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const clang::FunctionDecl &Child) const override;

private:
  PromoteOptions Options;
};

} // namespace launchopt

#endif

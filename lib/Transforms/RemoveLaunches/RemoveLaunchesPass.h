#ifndef LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_REMOVELAUNCHESPASS_H
#define LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_REMOVELAUNCHESPASS_H

#include "Transforms/LaunchPass.h"
#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// The subtask assignments of free launch (paper §2.2) and the selector.
enum class RemovalVersion {
  Auto, // per site: the megakernel where it applies, else T3 or T4 (selectVersion)
  T1,   // CB* -> PB*: any parent block runs any child block (persistent grid)
  T2,   // CK* -> PB*: any parent block runs a whole child grid
  T3,   // CKi -> PBi: the launching block runs its threads' child grids
  T4,   // CKi -> PTi: the launching thread runs its child grid
  // auto's persistent grid: the host launches it or the original (Fig. 7a),
  // the device picks T1 or T2 (Fig. 7b); not in the flag's grammar.
  Megakernel,
};

struct RemoveLaunchesOptions {
  RemovalVersion Version = RemovalVersion::Auto;
  // Default of LAUNCHOPT_REMOVAL_SLOTS: launches a parent block records in
  // shared memory before it takes device-heap nodes (T3).
  unsigned DefaultSlots = 64;
  // Remove launches that follow another launch of the same parent thread into
  // an ordered stream although not all of the parent's launches are removed
  // the same way (they are then assumed independent).
  bool AssumeIndependentChildren = false;
};

llvm::Expected<RemoveLaunchesOptions> parseRemovalVersion(const std::string &Text);

// Launch removal (free launch): the work of a device-side launch is run by
// the parent thread (T4) or the parent block (T3) instead of a child grid.
// When every device-side launch of the file is removed, the output needs no
// relocatable device code, and a note says so.
class RemoveLaunchesPass : public LaunchPass {
public:
  explicit RemoveLaunchesPass(RemoveLaunchesOptions Options) : Options(Options) {}
  PassResult run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const override;
  // Launches from other files are removed by T4: the parent thread calls the
  // thread-run copy that the child's own file exports.
  llvm::Error acceptChildOfOtherFiles(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const clang::FunctionDecl &Child) const override;

private:
  RemoveLaunchesOptions Options;
};

} // namespace launchopt

#endif

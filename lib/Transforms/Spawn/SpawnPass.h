#ifndef LAUNCHOPT_TRANSFORMS_SPAWN_SPAWNPASS_H
#define LAUNCHOPT_TRANSFORMS_SPAWN_SPAWNPASS_H

#include "Analysis/LaunchSites.h"
#include "Transforms/LaunchPass.h"
#include "Transforms/PassResult.h"

namespace launchopt {

struct SpawnOptions {
  // Serialize launches that follow another launch into the same stream from
  // the same parent thread (they are then assumed not to depend on each other).
  bool AssumeIndependentChildren = false;
};

// Controlled launch (SPAWN): each device-side launch the serial copy can
// replace asks the spawn controller (runtime/include/launchopt/spawn.cuh),
// which launches the child when the GPU's child-CTA queue would finish it
// sooner than the parent thread, and while the pending-launch pool and the
// concurrent-grid limit have room; otherwise the parent thread runs the
// child's serial copy. A launched child is a copy that reports its finished
// blocks to the controller. A child that cannot run in the parent thread
// (barriers, shared memory) is launched while the limits allow, else
// deferred: recorded and launched after the parent grid by its drain
// (runtime/include/launchopt/deferral.cuh).
class SpawnPass : public LaunchPass {
public:
  explicit SpawnPass(SpawnOptions Options) : Options(Options) {}
  PassResult run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const override;
  // Children of other files whose threads can run in the parent thread: the
  // child's file exports its serial copy and spawned kernel.
  llvm::Error acceptChildOfOtherFiles(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const clang::FunctionDecl &Child) const override;

private:
  SpawnOptions Options;
};

} // namespace launchopt

#endif

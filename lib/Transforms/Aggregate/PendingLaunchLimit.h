#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_PENDINGLAUNCHLIMIT_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_PENDINGLAUNCHLIMIT_H

#include "Transforms/PassResult.h"
#include "clang/AST/ASTContext.h"
#include <vector>

namespace launchopt {

// A note for each call in the main file that sets
// cudaLimitDevRuntimePendingLaunchCount, for a file whose launches were
// aggregated: the program sized the pool for one launch per parent thread,
// and a pool far larger than the launches that remain slows every device
// launch. The call is left as written (a direct fallback still needs a slot).
std::vector<LaunchRemark> pendingLaunchLimitNotes(clang::ASTContext &Ctx);

} // namespace launchopt

#endif

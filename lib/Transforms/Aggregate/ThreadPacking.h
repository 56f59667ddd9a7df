#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_THREADPACKING_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_THREADPACKING_H

// Which children's aggregated grids pack child threads densely
// (--aggregate=threads) rather than whole child blocks.

#include "Analysis/LaunchSites.h"
#include "llvm/Support/Error.h"

namespace launchopt {

// Why a child's threads cannot be packed into blocks with threads of other
// launches; success when nothing stands in the way. Packing needs what
// running the threads one by one needs (thresholding's serial copy: no
// barrier, shared memory, warp primitive, inline assembly or unseen callee),
// and a child that launches nothing itself: its own aggregation scopes would
// take an aggregated block for one of its original blocks.
llvm::Error threadPackingBlocker(const LaunchAnalysis &Launches, const clang::FunctionDecl &Child);

} // namespace launchopt

#endif

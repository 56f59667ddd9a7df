#ifndef LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_PERSISTENTBLOCKCHILD_H
#define LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_PERSISTENTBLOCKCHILD_H

// A child whose threads work together (block barriers, shared memory, warp
// primitives) in the persistent grid of T1/T2 (paper §2.3, the case of
// child blocks with barriers): a block of the grid runs one child block at
// a time with the same threads, thread t as child thread t, so the child's
// own __syncthreads, shared memory and warps are those of the running
// block. That holds when every recorded launch has the parent's block shape
// (the grid's blocks are the parent's), needs no more dynamic shared memory
// than the parent's launch gives, and no thread leaves the child block
// before the others but all together.

#include "Analysis/LaunchSites.h"
#include "llvm/Support/Error.h"

namespace launchopt {

// Whether the persistent grid runs the site's child block by block.
bool childRunsAsWholeBlocks(const LaunchAnalysis &Launches, const LaunchSite &Site);

// Why the persistent grid of the site's parent cannot run its child block by
// block: a barrier other than the block's, a recorded launch whose block
// shape or dynamic shared memory differs from the parent's launches (or is
// not a constant), or a return that not the whole block takes.
llvm::Error persistentBlockChildRefusal(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                        const LaunchSite &Site);

} // namespace launchopt

#endif

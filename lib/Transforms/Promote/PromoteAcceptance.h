#ifndef LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTEACCEPTANCE_H
#define LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTEACCEPTANCE_H

// Which launches promotion takes: a kernel's launch of itself, as one
// single-block successor per parent block, at the end of the kernel, with a
// configuration known at the kernel's start.

#include "Analysis/LaunchSites.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

namespace launchopt {

// Success when the launch can be promoted; else the remark's text.
llvm::Error promotionRefusal(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                             const LaunchSite &Site);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTEOVERLAP_H
#define LAUNCHOPT_TRANSFORMS_PROMOTE_PROMOTEOVERLAP_H

// Promotion with overlap (KLAP §III-C), found by analysis instead of an
// annotation: which arguments of the successor are known at the kernel's
// start, whether the launch condition is, and how many statements at the
// start of the body a successor may run before its predecessor releases it.

#include "Analysis/LaunchSites.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace launchopt {

struct OverlapPlan {
  // Per parameter: its argument is computed from values known at the
  // kernel's start (else it is postponed to the launch site).
  std::vector<bool> Available;
  // The launch condition without its choice of the thread, as written (the
  // successor exists exactly when it holds); "true" when there is none.
  std::string EarlyCondition;
  // The independent region: the first Statements top-level statements of
  // the body; the acquire goes before NextStatement (a main-file offset).
  unsigned Statements = 0;
  unsigned NextStatement = 0;
  // Why the region ends where it does (the statement that could not move).
  std::string Stop;
};

// The plan, or why the launch gets no overlap (it is then promoted without).
llvm::Expected<OverlapPlan> planOverlap(clang::ASTContext &Ctx, const LaunchSite &Site);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_ANALYSIS_LAUNCHPLACEMENT_H
#define LAUNCHOPT_ANALYSIS_LAUNCHPLACEMENT_H

// Where a launch stands in the program, as far as a pass that replaces it or
// writes new code beside its parent must know.

#include "LaunchSites.h"

namespace launchopt {

// Whether the launch is a statement of its own: not an expression whose
// value is used (`(void)k<<<...>>>()`, `return k<<<...>>>()`), nor a
// for-loop's init or increment. Only there can a block replace it.
bool isWholeStatement(clang::ASTContext &Ctx, const clang::CUDAKernelCallExpr &Call);

// Whether parent and child are declared in the same namespace (or class), so
// that code written before the parent may name the child's parameter types
// as the child spells them.
bool sameNamespace(const LaunchSite &Site);

// Whether the names the child's namespace declares are found unqualified
// from the parent: they are in the same namespace, the parent perhaps a
// member function of a class there.
bool sameEnclosingNamespace(const LaunchSite &Site);

} // namespace launchopt

#endif

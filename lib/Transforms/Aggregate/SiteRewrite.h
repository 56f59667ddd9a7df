#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_SITEREWRITE_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_SITEREWRITE_H

// The text that replaces an aggregated launch in its parent's body: reserve
// a record, store the arguments, or launch as written when that fails.

#include "AggregatePass.h"
#include "AggregationCode.h"
#include "Transforms/Common/IncludedFileCopies.h"
#include "Transforms/Common/LaunchText.h"
#include <optional>

namespace launchopt {

// A launch the pass aggregates.
struct AcceptedSite {
  const LaunchSite *Site;
  // Site->Child, or for a child of another file its declaration here.
  const clang::FunctionDecl *Child;
  LaunchText Text;
  AggregatedSite Code;
  size_t RemarkIndex; // its remark in the pass's result
  // The kernels whose blocks gather its launches: the parent, or for a
  // launch in a device function the kernels that call it (their copies
  // pass the scopes to the function's copy), with the function's start.
  std::vector<const clang::FunctionDecl *> ScopeKernels;
  std::optional<unsigned> FunctionStart;
  // A child of another namespace defined after the parent: where its
  // argument structs and declarations go (AcceptedLaunch).
  std::optional<IncludedPlacement> DeclarationsInNamespace;
};

// The child's namespaces ("::kern::", anonymous ones left out: their members
// are found through the enclosing one) when code in another namespace
// records or launches it: the function the launch is written in, or a
// kernel that gathers it (Kernels); else "".
std::string childScope(const clang::FunctionDecl &Child, const clang::FunctionDecl &Function,
                       const std::vector<const clang::FunctionDecl *> &Kernels);

// Which arguments of the launch every parent thread of one scope computes
// alike. ParentUniform: set when the parent's own launches are aggregated,
// so that one grid of it may run the blocks of several of them: which of
// its parameters all those launches pass alike.
UniformParameters uniformArgumentsAt(clang::ASTContext &Ctx, const AcceptedSite &A,
                                     AggregationGranularity G,
                                     const UniformParameters *ParentUniform);

// The replacement of the launch statement; Uniform: the child's arguments
// passed once per scope. Deferrable: a launch that cannot be recorded is
// deferred when the pending-launch pool is near full or refuses it
// (launchopt/deferral.cuh), which the parent may not see when it
// tail-launches work of its own.
std::string siteReplacement(const AcceptedSite &A, const UniformParameters &Uniform,
                            bool Deferrable);

} // namespace launchopt

#endif

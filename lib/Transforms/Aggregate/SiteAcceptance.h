#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_SITEACCEPTANCE_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_SITEACCEPTANCE_H

// Which launch sites the aggregation pass takes, and why it leaves the others.

#include "AggregatePass.h"
#include "DeviceFunctionSites.h"
#include "Transforms/Common/LaunchAcceptance.h"
#include "Transforms/Common/ShadowCallees.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace launchopt {

// One entry per site of the analysis: a candidate (its parent read too), or
// the reason it is refused.
struct SiteDecisions {
  std::vector<std::optional<AcceptedLaunch>> Candidates;
  std::vector<std::string> Refusals; // "" where the site is taken
  std::set<std::string> LaunchedFromDevice; // kernels some device-side site launches
  // Taken sites whose aggregated grids keep the order of the parent thread's
  // launches into the block's NULL stream (ordered scopes), by index.
  std::set<size_t> Ordered;
  // --aggregate=host: per child, the block size and dynamic shared memory
  // of its host-launched aggregated grid (text of unsigned expressions).
  struct HostBlock {
    std::string Threads;
    std::string SharedMemory;
  };
  std::map<const clang::FunctionDecl *, HostBlock> HostBlocks;
};

// Each site is taken or refused on its own first. Then, at multi-block and
// grid granularity, a parent that is launched from device code keeps its
// sites only if every such launch of it is taken. A grid of it launched as
// written would share the file-scope group scopes, while an aggregated grid
// gets its own. Refusing one launch can refuse more.
// Scopes: the kernels that gather the launches written in device functions.
SiteDecisions decideSites(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                          const AggregateOptions &Options, ShadowCallees &Shadows,
                          const DeviceFunctionScopes &Scopes);

} // namespace launchopt

#endif

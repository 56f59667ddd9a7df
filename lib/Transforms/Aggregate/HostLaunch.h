#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_HOSTLAUNCH_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_HOSTLAUNCH_H

// --aggregate=host: a parent launched from the host records its children's
// launches in grid scopes, and the host launches the aggregated grids into
// the parent's stream right after the parent (runtime/include/launchopt/
// host_aggregation.cuh). Under CDP2 a fire-and-forget child only has to be
// done before what follows the parent's grid in its stream, and a grid
// launched after the parent starts exactly then; the output keeps no
// device-side launch where every launch is taken this way.

#include "AggregationCode.h"
#include "PoolDemand.h"
#include "SiteAcceptance.h"
#include "SiteRewrite.h"
#include <map>
#include <set>
#include <vector>

namespace launchopt {

// Refuses, among the sites still taken, those the host cannot launch the
// children of: a parent launched from device code, tail-launching work of
// its own (which may need the children's results), not launched from the
// host in this file or through a launch that cannot be rewritten, or
// referenced otherwise (its launches could not all be found); a child whose
// block size the host cannot know; a site followed by a launch of the same
// parent thread that stays on the device and would overtake it. Fills
// HostBlocks (the aggregated grid's block and shared memory per child).
void refuseHostLaunches(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                        const AggregateOptions &Options, SiteDecisions &D);

// The function a launch that cannot be recorded calls instead (the child
// run by the launching thread), or empty when it stays a device launch: a
// child whose threads depend on each other, or that launches itself.
std::string hostOverflowFunction(const LaunchAnalysis &Launches, const clang::FunctionDecl &Child);

// The aggregated kernel of a child launched by the host: a grid of any size
// strides over the recorded child blocks (or packed child threads). Named
// with HostAggregatedPrefix under --aggregate=host-or-device (WhenLarge),
// whose device side has an aggregated kernel of its own.
std::string hostAggregatedKernel(const KernelCopy &Child, const UniformParameters &Uniform,
                                 bool PackThreads, bool WhenLarge);

// After the parent and every child it aggregates (they name the scopes and
// the aggregated kernels): the kernel that arms the parent's
// scopes and the host function that launches its aggregated grids.
std::string hostLaunchFunctions(const KernelCopy &Parent, const std::vector<AggregatedSite> &Sites);

// Rewrites every host launch of the parents that have host-launched sites:
// prepare the record pool and arm, launch the parent, launch the aggregated
// grids, in one stream. WhenLarge: the first and last only for a parent grid
// the host aggregates (launchopt::hostAggregates).
void rewriteHostLaunches(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                         const std::set<const clang::FunctionDecl *> &Parents,
                         const std::map<std::string, ParentPoolDemand> &DemandOf, bool WhenLarge,
                         SourceEdits &Edits);

} // namespace launchopt

#endif

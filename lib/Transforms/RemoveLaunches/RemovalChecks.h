#ifndef LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_REMOVALCHECKS_H
#define LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_REMOVALCHECKS_H

// What stands in the way of each version at a launch site, and the host-side
// selector of auto (paper §3, Fig. 7a, from what is known before running).

#include "RemoveLaunchesPass.h"
#include "Analysis/ConstantOperand.h"
#include "Transforms/Common/LaunchText.h"
#include "Transforms/Common/PlainBuild.h"
#include "Transforms/Common/ShadowCallees.h"
#include <cstdint>
#include <optional>
#include <set>

namespace launchopt {

// Why no version can take a launch from this place, whatever it launches.
llvm::Error launchSiteRefusal(const LaunchSite &Site);

// Why neither T3 nor T4 can take the launch, whatever its child.
llvm::Error removalRefusal(const LaunchSite &Site);

// What in the child itself keeps its threads from running one after another
// in the parent thread (T4).
llvm::Error threadRunChildRefusal(const KernelFeatures &Features);

// Why the parent thread cannot run the child grid (T4).
llvm::Error threadRunRefusal(const LaunchAnalysis &Launches, const LaunchSite &Site,
                             ShadowCallees &Shadows);

// Why the parent block cannot run the child grids its threads launch (T3).
llvm::Error blockRunRefusal(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                            const LaunchSite &Site, ShadowCallees &Shadows);

// Whether the site's kernel launches itself (the parent is the child).
bool launchesItself(const LaunchSite &Site);

// Whether one of the kernel's own launches is of itself.
bool parentLaunchesItself(const LaunchAnalysis &Launches, const clang::FunctionDecl &Parent);

// Why the parent cannot become a persistent grid whose blocks run the
// recorded child grids (T2) or child blocks (T1): the simple cases are
// taken (launches of one child in a kernel that only the host launches, in
// this file, after its definition; a child of independent threads, whose own
// launches, if any, are of itself and are recorded in the same queue; or a
// kernel of independent threads that launches only itself and that only the
// host and itself launch).
llvm::Error persistentGridRefusal(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                  const LaunchSite &Site, ShadowCallees &Shadows,
                                  bool AssumeIndependentChildren);

// Why a launch cannot run at any time the persistent grid picks, as its
// recorded launches do: it may follow another of its thread into an ordered
// stream (a loop, a second launch) with no proof that they are independent.
// What names the launch in the reason.
llvm::Error unorderedRunRefusal(const LaunchAnalysis &Launches, const LaunchSite &Site,
                                bool AssumeIndependentChildren, const std::string &What);

// The functions the roots reach through direct calls, themselves included
// (canonical declarations).
std::set<const clang::FunctionDecl *>
callReach(const std::vector<const clang::FunctionDecl *> &Roots);

// Whether Site gives a dynamic shared memory size its child never reads (no
// `extern __shared__` array in it or its callees: KernelFeatures), written
// without side effects: running the child needs none.
bool childIgnoresSharedMemorySize(const clang::ASTContext &Ctx, const LaunchSite &Site);

// L as a removed launch records it: a dynamic shared memory size the child
// never reads, written without side effects, becomes 0, so that the grid or
// block that runs the child (which gives it none) accepts the record.
LaunchText recordedLaunchText(const clang::ASTContext &Ctx, const LaunchSite &Site, LaunchText L);

// Whether Caller, or the function a lambda Caller is written in, is in Reach.
bool runsIn(const clang::FunctionDecl *Caller, const std::set<const clang::FunctionDecl *> &Reach);

// The calls that create or destroy a stream of the parent or the child made
// only for launches that its persistent grid records (LaunchSite::
// CreatedStream): the grid's copies need none of them.
std::vector<const DeviceRuntimeUse::StreamLifetimeCall *>
recordedStreamCalls(const DeviceRuntimeUse &Use, const LaunchAnalysis &Launches,
                    const LaunchSite &Site);

// The launch sites written in the child's own body.
std::vector<const LaunchSite *> selfLaunches(const LaunchAnalysis &Launches,
                                             const clang::FunctionDecl &Child);

// The kernels a persistent grid of Parent runs for its launches of Child:
// Child and, through the launches it makes, every kernel it reaches (nested
// children), Parent excepted. A Child that is the Parent is alone: its
// launches are the parent's sites.
std::vector<const clang::FunctionDecl *> recordedKernels(const LaunchAnalysis &Launches,
                                                         const clang::FunctionDecl &Parent,
                                                         const clang::FunctionDecl &Child);

// Why the launches that those kernels make cannot be recorded in the
// parent's queue while the grid runs them: each is one a thread may make at
// any time, not ordered after another of its launches unless
// AssumeIndependentChildren; a nested child (not the kernel itself) has
// independent threads, is no template, and is defined before the parent in
// its namespace.
llvm::Error recordedLaunchRefusal(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                  const clang::FunctionDecl &Parent,
                                  const clang::FunctionDecl &Child, bool AssumeIndependentChildren);

// Whether the child's threads must run together as a block (barriers, shared
// memory, warp primitives): only T3 can run it then.
bool childNeedsBlock(const KernelFeatures &F);

// The auto selector's choice for a site and why.
struct VersionChoice {
  RemovalVersion Version;
  std::string Why;
};
// A child whose grid has at least this many threads, known from constants,
// is run by the parent block: one parent thread would run them in turn.
inline constexpr uint64_t LargeChildThreads = 1024;
VersionChoice selectVersion(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                            const LaunchSite &Site);

} // namespace launchopt

#endif

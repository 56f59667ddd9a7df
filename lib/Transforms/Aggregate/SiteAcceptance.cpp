#include "SiteAcceptance.h"

#include "DeviceFunctionSites.h"
#include "HostLaunch.h"
#include "SiteRewrite.h"
#include "Analysis/ChildIndependence.h"
#include "Analysis/LaunchOrder.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/Attr.h"
#include <algorithm>

namespace launchopt {

namespace {

// What keeps one launch of an ordered chain from keeping its place in the
// block's NULL stream; empty when nothing does.
std::string unorderableLaunch(const LaunchSite &Site) {
  std::string At = "the launch at line " + std::to_string(Site.Position.Line);
  if (Site.StreamKind != LaunchStream::Default)
    return At + " goes into a named stream, not the block's NULL stream";
  if (Site.InLoop)
    return At + " is in a loop, and one aggregated grid would run its turns together";
  if (Site.FollowsUnseenLaunches)
    return At + " may follow launches of other calls";
  return "";
}

// Why the launches of Site's parent thread into its ordered stream cannot be
// aggregated in order (ordered scopes: each aggregated grid is launched into
// the block's NULL stream after those of the thread's earlier launches, and
// when the block's scopes cannot be opened every thread launches them all
// directly); empty when they can.
std::string orderedAggregationBlocker(const LaunchAnalysis &Launches, const LaunchSite &Site,
                                      const AggregateOptions &Options) {
  if (Options.HostLaunch || usesGroupScopes(Options.Granularity))
    return "only warp and block granularity keep the order: a group's aggregated grid is "
           "launched by another block, into another stream";
  if (!isKernel(*Site.Parent))
    return "the launch is in a device function, and ordered scopes take launches written "
           "directly in a kernel";
  for (unsigned P : orderedStreamPartners(Launches, Site))
    if (std::string Why = unorderableLaunch(Launches.Sites[P]); !Why.empty())
      return Why;
  if (std::string Why = unorderableLaunch(Site); !Why.empty())
    return Why;
  // Across a barrier the block's launches are ordered too; warps whose
  // scopes open and warps whose scopes fail would break that order.
  if (Options.Granularity == AggregationGranularity::Warp &&
      !featuresOf(Launches, *Site.Parent).Barriers.empty())
    return "the parent has barriers, which order the launches of all its warps: use block "
           "granularity";
  return "";
}

// Why a launch from device code cannot be aggregated, whatever else is taken;
// success when nothing in the launch or its kernels stands in the way.
// NeedsOrder: taken only because its scope keeps the order of the parent
// thread's launches into the block's NULL stream.
llvm::Error refusalOf(const LaunchAnalysis &Launches, const LaunchSite &Site,
                      const AggregateOptions &Options, ShadowCallees &Shadows,
                      const DeviceFunctionScopes &Scopes, bool &NeedsOrder) {
  NeedsOrder = false;
  if (!Site.DeviceSide)
    return refusal("host-side launch: aggregation applies to launches from device code");
  // A child of another file was checked there (acceptChildOfOtherFiles).
  const bool External = acceptedExternalChild(Launches, Site) != nullptr;
  if (!Site.Child && !External)
    return refusal(Site.UnresolvedReason);
  if (!isKernel(*Site.Parent)) {
    if (Options.HostLaunch)
      return refusal("the launch is in a device function: " + hostModeFlag(Options) +
                     " takes launches written directly in a host-launched kernel");
    if (auto Why = Scopes.Refusals.find(Site.Id); Why != Scopes.Refusals.end())
      return refusal(Why->second);
    if (!Scopes.KernelsOf.count(Site.Id))
      return refusal("the launch is in a device function, not directly in a kernel");
  }
  if (llvm::StringRef(Site.ChildName).starts_with(generated::aggregate::AggregatedPrefix))
    return refusal("the child is already aggregated");
  if (Site.StreamKind == LaunchStream::TailLaunch)
    return refusal("the child is tail-launched: it must run after the whole parent grid");
  // The code that gathers the launches sits outside the launch's branches and
  // names the child: under `if constexpr` it would instantiate the child where
  // the condition discards the launch (a template recursion with no end).
  for (const LaunchSite::Branch &B : Site.EnclosingBranches)
    if (const auto *If = llvm::dyn_cast<clang::IfStmt>(B.Statement); If && If->isConstexpr())
      return refusal("the launch is under `if constexpr`: the code that gathers it outside "
                     "that branch would name the child where the condition discards the launch");
  // The parent's block gathers its launches at places the pass chooses in
  // the parent's body; a closure may run after them, or in another grid.
  if (Site.InClosure)
    return refusal("the launch is written in a lambda, which may run it after the parent's "
                   "block has gathered its launches, or in another grid");
  if (!Options.AssumeIndependentChildren && Site.FollowedByUnseenLaunches)
    return refusal(Site.UnseenOrder +
                   "; aggregating could reorder them (pass "
                   "--assume-independent-children if they do not depend on each other)");
  if (!Options.AssumeIndependentChildren && mayReorderWithEarlierLaunch(Launches, Site))
    if (Independence Proof = proveIndependentOfEarlierLaunches(Launches, Site); !Proof.Proved) {
      std::string Blocker = orderedAggregationBlocker(Launches, Site, Options);
      if (!Blocker.empty())
        return refusal("the parent thread launches other children into the same stream "
                       "before this one (in a loop or earlier); aggregating could reorder "
                       "them (pass --assume-independent-children if they do not depend on "
                       "each other); not proved independent: " +
                       Proof.Text + "; not kept in order: " + Blocker);
      NeedsOrder = true;
    }
  if (External)
    return llvm::Error::success();
  if (llvm::Error Unshadowable = Shadows.require(*Site.Child))
    return Unshadowable;
  // One aggregated grid runs many child grids: their tail launches would
  // come from many of its threads beside its other launches, which CUDA 13.0
  // can leave unfinished forever (test/random/results/tail-launch-hang).
  if (Launches.ChildFeatures.count(Site.Child) &&
      Launches.ChildFeatures.at(Site.Child).TailLaunches)
    return refusal("the child tail-launches kernels: in an aggregated grid its tail launches "
                   "would come from many threads of one grid, which CUDA 13.0 can leave "
                   "unfinished");
  return llvm::Error::success();
}

// Code of another namespace names the child's argument structs, launcher and
// direct copy qualified (childScope); they are defined beside the child, so
// the child must come before that code.
llvm::Error childOfOtherNamespaceBlocker(clang::ASTContext &Ctx, const LaunchSite &Site,
                                         const DeviceFunctionScopes &Scopes) {
  std::vector<const clang::FunctionDecl *> Kernels;
  if (auto Gathering = Scopes.KernelsOf.find(Site.Id); Gathering != Scopes.KernelsOf.end())
    Kernels = Gathering->second;
  if (childScope(*Site.Child, *Site.Parent, Kernels).empty())
    return llvm::Error::success();
  const clang::SourceManager &SM = Ctx.getSourceManager();
  Kernels.push_back(Site.Parent);
  for (const clang::FunctionDecl *F : Kernels)
    if (!SM.isBeforeInTranslationUnit(Site.Child->getEndLoc(), F->getBeginLoc()))
      return refusal("the child, in another namespace than '" + F->getNameAsString() +
                     "', is not defined before it: the code that records its launches there "
                     "names what is defined beside the child");
  return llvm::Error::success();
}

// The site's candidate, or the reason it is refused on its own.
llvm::Expected<AcceptedLaunch> readCandidate(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                             const LaunchSite &Site,
                                             const AggregateOptions &Options,
                                             ShadowCallees &Shadows,
                                             const DeviceFunctionScopes &Scopes, bool &NeedsOrder) {
  // The parent's body is replaced, and the child keeps its name: the
  // aggregated kernel and the argument structs are named after it. A
  // device function is copied by the shadow copies instead.
  AcceptanceSteps Steps{"", /*ReadParent=*/isKernel(*Site.Parent)};
  // The host's launch of the aggregated grid is written after the child.
  Steps.ChildInIncludedFile = !Options.HostLaunch;
  Steps.NamesAfterChild = true;
  llvm::Error Refusal = refusalOf(Launches, Site, Options, Shadows, Scopes, NeedsOrder);
  const ExternalChild *External = acceptedExternalChild(Launches, Site);
  llvm::Expected<AcceptedLaunch> Launch =
      External ? acceptExternalLaunch(Ctx, Site, *External, std::move(Refusal), Steps)
               : acceptLaunch(Ctx, Site, std::move(Refusal), Steps);
  if (!Launch)
    return Launch.takeError();
  // The record's argument struct is named with the launch's template
  // arguments; a launch that leaves them to deduction has none to name.
  if (!Launch->Child.TemplateHeader.empty() && Launch->TemplateArguments.empty())
    return refusal("the launch leaves the child's template arguments to deduction from "
                   "arguments whose types are not known before the parent is instantiated: "
                   "write the template arguments out");
  // The copy of a header's kernel is written from the header's text, which
  // takes none of the main file's edits.
  if (Launch->ChildInHeader && !Shadows.callEdits(*Site.Child).empty())
    return refusal("the child kernel, defined in an included header, calls functions that read "
                   "the built-in index variables (or queries cooperative groups): its copy after "
                   "the #include cannot pass them the original launch's values");
  // A child of another namespace after its kernel parent: its declarations
  // go before the parent in its namespace (PrototypeInNamespace).
  if (!External && !(Launch->PrototypeInNamespace && isKernel(*Site.Parent)))
    if (llvm::Error Misplaced = childOfOtherNamespaceBlocker(Ctx, Site, Scopes))
      return std::move(Misplaced);
  return Launch;
}

// The names of the kernels whose scopes gather the site's launches.
std::vector<std::string> scopeKernelNames(const LaunchSite &Site,
                                          const DeviceFunctionScopes &Scopes) {
  auto Kernels = Scopes.KernelsOf.find(Site.Id);
  if (Kernels == Scopes.KernelsOf.end())
    return {Site.ParentName};
  std::vector<std::string> Names;
  for (const clang::FunctionDecl *K : Kernels->second)
    Names.push_back(K->getNameAsString());
  return Names;
}

void refuseSharedGroupScopes(const LaunchAnalysis &Launches,
                             const std::set<std::string> &LaunchedFromDevice,
                             const DeviceFunctionScopes &Scopes,
                             std::vector<std::string> &Refusals) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Launches.Sites.size(); ++I) {
      const LaunchSite &Site = Launches.Sites[I];
      if (!Refusals[I].empty())
        continue;
      std::vector<std::string> Kernels = scopeKernelNames(Site, Scopes);
      for (size_t J = 0; J < Launches.Sites.size(); ++J) {
        const LaunchSite &Launch = Launches.Sites[J];
        if (!Launch.DeviceSide || Refusals[J].empty() ||
            std::find(Kernels.begin(), Kernels.end(), Launch.ChildName) == Kernels.end() ||
            !LaunchedFromDevice.count(Launch.ChildName))
          continue;
        Refusals[I] = (Scopes.KernelsOf.count(Site.Id)
                           ? "the kernel '" + Launch.ChildName + "', which gathers it,"
                           : std::string("the parent")) +
                      " is also launched from device code at line " +
                      std::to_string(Launch.Position.Line) +
                      ", a launch that is not aggregated: its grids may run at the same time "
                      "and would share one group scope (use warp or block granularity)";
        Changed = true;
        break;
      }
    }
  }
}

// A parent that device code of another file launches: that launch is not
// aggregated when the parent launches kernels itself at group granularity
// (AggregatePass::acceptChildOfOtherFiles), so its grids would share the
// file-scope group scopes.
void refuseGroupScopesOfParentsOfOtherFiles(const LaunchAnalysis &Launches,
                                            const DeviceFunctionScopes &Scopes,
                                            std::vector<std::string> &Refusals) {
  auto FromOtherFiles = [&](const LaunchSite &Site) {
    auto Kernels = Scopes.KernelsOf.find(Site.Id);
    if (Kernels == Scopes.KernelsOf.end())
      return Launches.LaunchedFromOtherFiles.count(Site.Parent) > 0;
    return std::any_of(
        Kernels->second.begin(), Kernels->second.end(),
        [&](const clang::FunctionDecl *K) { return Launches.LaunchedFromOtherFiles.count(K) > 0; });
  };
  for (size_t I = 0; I < Launches.Sites.size(); ++I)
    if (Refusals[I].empty() && FromOtherFiles(Launches.Sites[I]))
      Refusals[I] = "the parent is also launched from device code in another file of the "
                    "program, a launch that is not aggregated: its grids may run at the same "
                    "time and would share one group scope (use warp or block granularity)";
}

// An aggregated child runs when its group's launch is made, after the
// launches the parent thread makes later: a later launch into the same
// ordered stream that stays a launch (refused here) would overtake it, unless
// it was proved independent of the earlier ones.
void refuseOvertakenLaunches(const LaunchAnalysis &Launches, const AggregateOptions &Options,
                             std::vector<std::string> &Refusals) {
  if (Options.AssumeIndependentChildren)
    return;
  std::vector<int> Proved(Launches.Sites.size(), -1); // -1: not asked yet
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Launches.Sites.size(); ++I) {
      const LaunchSite &Later = Launches.Sites[I];
      if (Refusals[I].empty() || !Later.DeviceSide || !mayReorderWithEarlierLaunch(Launches, Later))
        continue;
      if (Proved[I] < 0)
        Proved[I] = proveIndependentOfEarlierLaunches(Launches, Later).Proved;
      if (Proved[I])
        continue;
      for (unsigned P : orderedStreamPartners(Launches, Later))
        if (P != I && Refusals[P].empty()) {
          Refusals[P] = "the launch of '" + Later.ChildName + "' at line " +
                        std::to_string(Later.Position.Line) +
                        ", which may follow this one into the same stream, is not aggregated: "
                        "it would run before this child's aggregated launch";
          Changed = true;
        }
    }
  }
}

// The sites whose aggregated grids keep their order: those taken because
// their scopes keep it, and the taken launches before them into the stream.
std::set<size_t> orderedSites(const LaunchAnalysis &Launches, const std::vector<bool> &NeedsOrder,
                              const std::vector<std::string> &Refusals) {
  std::set<size_t> Ordered;
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    if (!NeedsOrder[I] || !Refusals[I].empty())
      continue;
    Ordered.insert(I);
    for (unsigned P : orderedStreamPartners(Launches, Launches.Sites[I]))
      if (Refusals[P].empty())
        Ordered.insert(P);
  }
  return Ordered;
}

} // namespace

SiteDecisions decideSites(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                          const AggregateOptions &Options, ShadowCallees &Shadows,
                          const DeviceFunctionScopes &Scopes) {
  SiteDecisions D;
  D.Candidates.resize(Launches.Sites.size());
  D.Refusals.resize(Launches.Sites.size());
  for (const LaunchSite &S : Launches.Sites)
    if (S.DeviceSide)
      D.LaunchedFromDevice.insert(S.ChildName);
  std::vector<bool> NeedsOrder(Launches.Sites.size(), false);
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    bool Order = false;
    llvm::Expected<AcceptedLaunch> Candidate =
        readCandidate(Ctx, Launches, Launches.Sites[I], Options, Shadows, Scopes, Order);
    NeedsOrder[I] = Order;
    if (Candidate)
      D.Candidates[I] = std::move(*Candidate);
    else
      D.Refusals[I] = llvm::toString(Candidate.takeError());
  }
  if (Options.HostLaunch) {
    refuseHostLaunches(Ctx, Launches, Options, D);
    refuseOvertakenLaunches(Launches, Options, D.Refusals);
  } else if (!usesGroupScopes(Options.Granularity)) {
    refuseOvertakenLaunches(Launches, Options, D.Refusals);
  } else {
    // A launch left for the stream's order launches its child as a grid of
    // its own, so that child's launches may no longer share a group scope,
    // which may leave more launches for the order: to a fixed point.
    refuseGroupScopesOfParentsOfOtherFiles(Launches, Scopes, D.Refusals);
    for (bool Changed = true; Changed;) {
      std::vector<std::string> Before = D.Refusals;
      refuseSharedGroupScopes(Launches, D.LaunchedFromDevice, Scopes, D.Refusals);
      refuseOvertakenLaunches(Launches, Options, D.Refusals);
      Changed = D.Refusals != Before;
    }
  }
  D.Ordered = orderedSites(Launches, NeedsOrder, D.Refusals);
  return D;
}

} // namespace launchopt

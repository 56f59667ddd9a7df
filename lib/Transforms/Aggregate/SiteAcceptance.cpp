#include "SiteAcceptance.h"

#include "clang/AST/Attr.h"

namespace launchopt {

const char *const AggregatedPrefix = "__lo_agg_";

namespace {

// `<T>` when the launch names the child's template arguments, else "".
std::string explicitTemplateArguments(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  std::optional<std::string> Marked = prefixedCallee(Ctx, Site, "");
  if (!Marked)
    return "";
  size_t Angle = Marked->find('<');
  return Angle == std::string::npos ? "" : Marked->substr(Angle);
}

// Why a launch from device code cannot be aggregated, whatever else is taken;
// "" when nothing in the launch or its kernels stands in the way.
std::string refusalOf(const LaunchAnalysis &Launches, const LaunchSite &Site,
                      const AggregateOptions &Options) {
  if (!Site.DeviceSide)
    return "host-side launch: aggregation applies to launches from device code";
  if (!Site.Child)
    return Site.UnresolvedReason;
  if (!Site.Parent->hasAttr<clang::CUDAGlobalAttr>())
    return "the launch is in a device function, not directly in a kernel";
  if (llvm::StringRef(Site.ChildName).starts_with(AggregatedPrefix))
    return "the child is already aggregated";
  if (Site.StreamKind == LaunchStream::TailLaunch)
    return "the child is tail-launched: it must run after the whole parent grid";
  if (!Options.AssumeIndependentChildren && mayReorderWithEarlierLaunch(Launches, Site))
    return std::string("the parent thread launches other children into the same stream ") +
           "before this one (in a loop or earlier); aggregating could reorder them (pass " +
           "--assume-independent-children if they do not depend on each other)";
  return "";
}

// The candidate of a site that refusalOf lets through, or the reason the
// text of the launch or of its kernels cannot be rewritten.
std::string readCandidate(clang::ASTContext &Ctx, const LaunchSite &Site, ShadowCallees &Shadows,
                          std::optional<SiteCandidate> &Candidate) {
  std::string Why = Shadows.require(*Site.Child);
  if (!Why.empty())
    return Why;
  LaunchTextOrReason Text = readLaunchText(Ctx, Site);
  if (!Text.Text)
    return Text.Reason;
  KernelCopyOrReason Child = readKernel(Ctx, *Site.Child);
  KernelCopyOrReason Parent = readKernel(Ctx, *Site.Parent);
  if (!Child.Copy || !Parent.Copy)
    return Child.Copy ? Parent.Reason : Child.Reason;
  // A child defined after its parent gets its argument structs before the
  // parent, written with the parameter types as the child declares them.
  if (Site.Child != Site.Parent && Child.Copy->Whole.End > Parent.Copy->Whole.Begin &&
      !sameNamespace(Site))
    return "the child is defined after the parent, in another namespace";
  std::string TemplateArgs = explicitTemplateArguments(Ctx, Site);
  if (!Child.Copy->TemplateHeader.empty() && TemplateArgs.empty())
    return "the launch leaves the child's template arguments to deduction";
  Candidate = SiteCandidate{*Text.Text, *Child.Copy, *Parent.Copy, TemplateArgs};
  return "";
}

void refuseSharedGroupScopes(const LaunchAnalysis &Launches,
                             const std::set<std::string> &LaunchedFromDevice,
                             std::vector<std::string> &Refusals) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Launches.Sites.size(); ++I) {
      const LaunchSite &Site = Launches.Sites[I];
      if (!Refusals[I].empty() || !LaunchedFromDevice.count(Site.ParentName))
        continue;
      for (size_t J = 0; J < Launches.Sites.size(); ++J) {
        const LaunchSite &Launch = Launches.Sites[J];
        if (!Launch.DeviceSide || Launch.ChildName != Site.ParentName || Refusals[J].empty())
          continue;
        Refusals[I] = "the parent is also launched from device code at line " +
                      std::to_string(Launch.Position.Line) +
                      ", a launch that is not aggregated: its grids may run at the same time "
                      "and would share one group scope (use warp or block granularity)";
        Changed = true;
        break;
      }
    }
  }
}

} // namespace

SiteDecisions decideSites(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                          const AggregateOptions &Options, ShadowCallees &Shadows) {
  SiteDecisions D;
  D.Candidates.resize(Launches.Sites.size());
  D.Refusals.resize(Launches.Sites.size());
  for (const LaunchSite &S : Launches.Sites)
    if (S.DeviceSide)
      D.LaunchedFromDevice.insert(S.ChildName);
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    D.Refusals[I] = refusalOf(Launches, Site, Options);
    if (D.Refusals[I].empty())
      D.Refusals[I] = readCandidate(Ctx, Site, Shadows, D.Candidates[I]);
  }
  if (usesGroupScopes(Options.Granularity))
    refuseSharedGroupScopes(Launches, D.LaunchedFromDevice, D.Refusals);
  return D;
}

} // namespace launchopt

#include "SiteFacts.h"

#include "Analysis/LaunchOrder.h"

#include "Analysis/ConstantOperand.h"
#include "Analysis/ThreadLoops.h"
#include "Analysis/Uniformity.h"
#include <algorithm>

namespace launchopt {

namespace {

// A configuration operand's count when it is a constant: an integer, or a
// dim3's product (blocks of a grid, threads of a block); in a template
// parent, also one of its non-type parameters that every host launch of the
// parent gives the same value (`<<<4, NUM_THREADS>>>`).
std::optional<double> constantSize(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                   const LaunchSite &Site, const clang::Expr *E) {
  if (!E)
    return std::nullopt;
  if (std::optional<uint64_t> N = constantOperand(Ctx, E))
    return static_cast<double>(*N);
  if (!Site.Parent || !Site.Parent->getDescribedFunctionTemplate())
    return std::nullopt;
  if (std::optional<std::array<uint64_t, 3>> Shape =
          constantShapeUnder(Ctx, *Site.Parent, E, hostLaunchesOf(Launches, *Site.Parent)))
    return static_cast<double>((*Shape)[0] * (*Shape)[1] * (*Shape)[2]);
  return std::nullopt;
}

// The largest (grid, block) of the parent's host launches, when each of
// them writes both as constants (`const int blocks = 4096;
// k<<<blocks, 64>>>`); nothing when any does not, none is seen, or device
// code launches the parent too.
std::optional<std::pair<double, double>>
parentShape(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches, const LaunchSite &Site) {
  // A parent that device code launches too (a recursion) runs with other
  // shapes than the host's.
  if (!Site.Parent ||
      std::any_of(Launches.Sites.begin(), Launches.Sites.end(), [&](const LaunchSite &S) {
        return S.DeviceSide && S.Child &&
               S.Child->getCanonicalDecl() == Site.Parent->getCanonicalDecl();
      }))
    return std::nullopt;
  std::optional<std::pair<double, double>> Largest;
  for (const LaunchSite *Host : hostLaunchesOf(Launches, *Site.Parent)) {
    std::optional<uint64_t> Grid = Host->Grid ? constantOperand(Ctx, Host->Grid) : std::nullopt;
    std::optional<uint64_t> Block = Host->Block ? constantOperand(Ctx, Host->Block) : std::nullopt;
    if (!Grid || !Block || !*Grid || !*Block)
      return std::nullopt;
    if (!Largest || double(*Grid) * *Block > Largest->first * Largest->second)
      Largest = {double(*Grid), double(*Block)};
  }
  return Largest;
}

} // namespace

SiteFacts analyseSite(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                      const LaunchSite &Site, bool ParentHostLaunched) {
  SiteFacts F;
  F.Position = Site.Position;
  F.LaunchId = Site.Id;
  F.Parent = Site.ParentName;
  F.Child = Site.ChildName;
  if (Site.Child) {
    auto Features = Launches.ChildFeatures.find(Site.Child);
    if (Features != Launches.ChildFeatures.end()) {
      F.ChildSynchronizes =
          !Features->second.Barriers.empty() || !Features->second.WarpPrimitives.empty();
      F.ChildUsesSharedMemory = Features->second.UsesSharedMemory;
    }
    F.ChildLoops = threadsMayLoop(*Site.Child);
  }
  F.Recursive = Site.Recursive;
  F.ChildLaunches =
      std::any_of(Launches.Sites.begin(), Launches.Sites.end(), [&](const LaunchSite &S) {
        return S.DeviceSide && S.Child && S.Parent == Site.Child;
      });
  F.InLoop = Site.InLoop;
  F.OneThreadPerBlock = Site.OneThreadPerBlock;
  F.OneThreadPerGrid = Site.OneThreadPerGrid;
  F.ParentHostLaunched = ParentHostLaunched;
  F.Stream = Site.StreamKind;
  for (unsigned P : orderedStreamPartners(Launches, Site))
    if (Launches.Sites[P].Id != Site.Id)
      F.OrderedPartners.push_back(Launches.Sites[P].Id);
  F.ChildGrid = constantSize(Ctx, Launches, Site, Site.Grid);
  F.ChildBlock = constantSize(Ctx, Launches, Site, Site.Block);
  if (F.ChildGrid && F.ChildBlock)
    F.ChildThreads = *F.ChildGrid * *F.ChildBlock;
  if (ParentHostLaunched)
    if (std::optional<std::pair<double, double>> Shape = parentShape(Ctx, Launches, Site)) {
      F.ParentGrid = Shape->first;
      F.ParentBlock = Shape->second;
    }
  F.Arguments = static_cast<unsigned>(Site.Arguments.size());
  if (Site.Parent)
    for (const clang::Expr *A : Site.Arguments)
      F.UniformArguments += isUniform(Ctx, *A, *Site.Parent, UniformityScope::Grid);
  return F;
}

std::map<std::string, std::string> describeFacts(const SiteFacts &F) {
  auto Number = [](std::optional<double> V) {
    return V ? std::to_string(static_cast<unsigned long long>(*V)) : std::string("not constant");
  };
  std::string Child = F.ChildSynchronizes ? "synchronizes" : "independent threads";
  if (F.ChildUsesSharedMemory)
    Child += ", shared memory";
  if (F.ChildLoops)
    Child += ", loops";
  std::string Launches = F.InLoop              ? "in a loop"
                         : F.OneThreadPerGrid  ? "one per parent grid"
                         : F.OneThreadPerBlock ? "one per parent block"
                                               : "at most one per parent thread";
  std::string Parent = F.ParentHostLaunched ? "launched from the host" : "launched from the device";
  if (F.ParentGrid && F.ParentBlock)
    Parent += " (" + Number(F.ParentGrid) + " blocks of " + Number(F.ParentBlock) + ")";
  return {{"child", Child + (F.Recursive ? ", recursive" : "")},
          {"child-threads", Number(F.ChildThreads)},
          {"launches", Launches},
          {"parent", Parent},
          {"stream", streamName(F.Stream)},
          {"uniform-arguments",
           std::to_string(F.UniformArguments) + " of " + std::to_string(F.Arguments)}};
}

} // namespace launchopt

#include "LaunchOrder.h"

#include <algorithm>

namespace launchopt {

namespace {

// Fire-and-forget and tail launches promise no order with the parent's
// other launches; the default stream and a named one run them in order.
bool isOrderedStream(LaunchStream S) {
  return S == LaunchStream::Default || S == LaunchStream::Named;
}

// Whether no thread runs both launches in one call of the parent: they sit
// in the two branches of one if (`if … else if … else` chains too), or in
// two cases of a switch where the earlier one ends in a break or return.
bool inExclusiveBranches(const LaunchSite &A, const LaunchSite &B) {
  for (const LaunchSite::Branch &X : A.EnclosingBranches)
    for (const LaunchSite::Branch &Y : B.EnclosingBranches)
      if (X.Statement == Y.Statement && X.Arm != Y.Arm) {
        const LaunchSite::Branch &First = X.Arm < Y.Arm ? X : Y;
        return First.ExitArm < std::max(X.Arm, Y.Arm);
      }
  return false;
}

} // namespace

bool mayReorderWithEarlierLaunch(const LaunchAnalysis &A, const LaunchSite &Site) {
  return !orderedStreamPartners(A, Site).empty();
}

std::vector<unsigned> orderedStreamPartners(const LaunchAnalysis &A, const LaunchSite &Site) {
  std::vector<unsigned> Partners;
  // A deferred launch is launched by a drain, at some later time: spawn
  // defers only where its order with the parent's other launches does not
  // matter (SpawnPass's deferralBlocker).
  if (!isOrderedStream(Site.StreamKind) || Site.InDeferredClosure)
    return Partners;
  for (unsigned I : A.SitesByParent.at(Site.Parent)) {
    const LaunchSite &Other = A.Sites[I];
    if (Other.InDeferredClosure)
      continue;
    bool Same = &Other == &Site;
    // A later launch comes first only in an earlier turn of a loop. A
    // launch that may follow launches of other calls (UnseenLaunchOrder.h)
    // stands for them: they are not sites of this function.
    // Launches in exclusive branches meet only across turns of a loop or
    // calls of the parent.
    bool MayComeFirst =
        Same ? Site.InLoop || Site.FollowsUnseenLaunches
             : Site.InLoop || (Other.Id < Site.Id &&
                               (Site.FollowsUnseenLaunches || !inExclusiveBranches(Site, Other)));
    if (MayComeFirst &&
        (Same || (isOrderedStream(Other.StreamKind) && mayShareStream(Other, Site))))
      Partners.push_back(I);
  }
  return Partners;
}

} // namespace launchopt

#include "LaunchOrder.h"

namespace launchopt {

namespace {

// Fire-and-forget and tail launches promise no order with the parent's
// other launches; the default stream and a named one run them in order.
bool isOrderedStream(LaunchStream S) {
  return S == LaunchStream::Default || S == LaunchStream::Named;
}

} // namespace

bool mayReorderWithEarlierLaunch(const LaunchAnalysis &A, const LaunchSite &Site) {
  if (!isOrderedStream(Site.StreamKind))
    return false;
  if (Site.InLoop)
    return true;
  for (unsigned I : A.SitesByParent.at(Site.Parent))
    if (A.Sites[I].Id < Site.Id && isOrderedStream(A.Sites[I].StreamKind) &&
        mayShareStream(A.Sites[I], Site))
      return true;
  return false;
}

std::vector<unsigned> orderedStreamPartners(const LaunchAnalysis &A, const LaunchSite &Site) {
  std::vector<unsigned> Partners;
  if (!isOrderedStream(Site.StreamKind))
    return Partners;
  for (unsigned I : A.SitesByParent.at(Site.Parent)) {
    const LaunchSite &Other = A.Sites[I];
    bool Same = &Other == &Site;
    // A later launch comes first only in an earlier turn of a loop.
    bool MayComeFirst = Same ? Site.InLoop : Site.InLoop || Other.Id < Site.Id;
    if (MayComeFirst &&
        (Same || (isOrderedStream(Other.StreamKind) && mayShareStream(Other, Site))))
      Partners.push_back(I);
  }
  return Partners;
}

} // namespace launchopt

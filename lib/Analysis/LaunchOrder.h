#ifndef LAUNCHOPT_ANALYSIS_LAUNCHORDER_H
#define LAUNCHOPT_ANALYSIS_LAUNCHORDER_H

#include "LaunchSites.h"
#include <vector>

namespace launchopt {

// Whether running this launch's child at another time than the launch (now,
// serially; or later, aggregated) could reorder it with children the same
// parent thread launched before it into one ordered stream: it sits in a
// loop, or follows another launch of the parent into the default or a named
// stream it may share (mayShareStream).
bool mayReorderWithEarlierLaunch(const LaunchAnalysis &A, const LaunchSite &Site);

// The launches of Site's parent whose children a thread may have put in
// Site's stream before it runs Site (Site itself among them when it sits in a
// loop, or may follow launches of other calls that are no sites of its
// function): those into an ordered stream that may be Site's (mayShareStream),
// as indices into A.Sites. A pass that runs Site's child at another time
// only while none of them launched keeps the stream's order without a proof.
std::vector<unsigned> orderedStreamPartners(const LaunchAnalysis &A, const LaunchSite &Site);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_ANALYSIS_LAUNCHORDER_H
#define LAUNCHOPT_ANALYSIS_LAUNCHORDER_H

#include "LaunchSites.h"

namespace launchopt {

// Whether running this launch's child at another time than the launch (now,
// serially; or later, aggregated) could reorder it with children the same
// parent thread launched before it into one ordered stream: it sits in a
// loop, or follows another launch of the parent into the default or a named
// stream it may share (mayShareStream).
bool mayReorderWithEarlierLaunch(const LaunchAnalysis &A, const LaunchSite &Site);

} // namespace launchopt

#endif

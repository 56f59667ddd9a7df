#ifndef LAUNCHOPT_ANALYSIS_CHILDINDEPENDENCE_H
#define LAUNCHOPT_ANALYSIS_CHILDINDEPENDENCE_H

#include "LaunchSites.h"
#include <optional>
#include <string>

namespace launchopt {

// A proof that running this launch's child at another time than the launch
// cannot change what the program computes although the same parent thread
// launched other children into the same ordered stream before it: for each
// such earlier launch, every array the two children (and everything they
// launch or call) share is only read by both, or the two touch disjoint
// index ranges of it. Returns the proof, worded for the remark, or nothing
// when none was found (the site is then refused unless the user passes
// --assume-independent-children).
//
// A child's footprint on a pointer parameter is an index range over its own
// integer parameters, `[lo, hi)`, `[lo, hi]` or `[0, n)`, checked against
// every use of the pointer: a subscript whose index the enclosing conditions,
// early returns, `for` loops and counters bound (a variable starting at x and
// incremented once per iteration of a loop from a to b stays within
// [x, x + b - a]), and the pointer passed as `p`, `p + e` or `&p[e]` to a
// launch or call whose callee's footprint, shifted, stays inside (assumed for
// the kernel being checked, so a recursive child proves itself). Any other use
// of the pointer (a copy, `*p`, a callee without a body) leaves it unproved.
// A launch in a loop is proved only by reads; the parent's variables in the
// ranges must not be written between the two launches.
std::optional<std::string> proveIndependentOfEarlierLaunches(const LaunchAnalysis &A,
                                                             const LaunchSite &Site);

} // namespace launchopt

#endif

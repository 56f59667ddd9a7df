#ifndef LAUNCHOPT_ANALYSIS_CHILDINDEPENDENCE_H
#define LAUNCHOPT_ANALYSIS_CHILDINDEPENDENCE_H

#include "LaunchSites.h"
#include <string>

namespace launchopt {

struct Independence {
  bool Proved = false;
  // The proof, worded for the remark; else what could not be proved (the
  // arrays, the access), worded to follow "not proved independent: ".
  std::string Text;
};

// A proof that running this launch's child at another time than the launch
// cannot change what the program computes although the same parent thread
// launched other children into the same ordered stream before it: for each
// such earlier launch and each pair of pointer arguments the two children
// (and everything they launch or call) use, both only read, or both only
// apply atomics of one kind whose values are unused to integers (atomicAdd
// and atomicSub together, atomicOr, ...: they commute), or the two point
// into different arrays (distinct parameters that the parent declares
// __restrict__ and never reassigns), or they touch disjoint index ranges of
// one array.
//
// A child's footprint on a pointer parameter is an index range over its own
// integer parameters, `[lo, hi)`, `[lo, hi]` or `[0, n)`, checked against
// every use of the pointer: a subscript whose index the enclosing conditions,
// early returns, `for` loops and counters bound (a variable starting at x and
// incremented once per iteration of a loop from a to b stays within
// [x, x + b - a]), and the pointer passed as `p`, `p + e` or `&p[e]` to a
// launch or call whose callee's footprint, shifted, stays inside (assumed for
// the kernel being checked, so a recursive child proves itself), or to a
// CUDA atomic. Any other use of the pointer (a copy, `*p`, a callee without
// a body) leaves it unproved. A launch in a loop is proved only by reads,
// atomics or __restrict__; the parent's variables in the ranges must not be
// written between the two launches.
Independence proveIndependentOfEarlierLaunches(const LaunchAnalysis &A, const LaunchSite &Site);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_GRIDGUARD_H
#define LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_GRIDGUARD_H

// The configuration of a removed launch, bound once, and the two checks that
// keep the removed child from doing what the launch would not:
// - a configuration the launch refuses (an empty grid, a grid or block over
//   the device's limits, as a wrapped negative count gives): the launch
//   fails and its child never runs, so the removed child must not run;
// - a grid that is not the ceiling of the count it was computed from (an
//   unsigned count of 0 in `(n - 1) / b + 1` wraps to 2^27 blocks): the
//   launch runs those blocks on the whole device, which one parent thread or
//   block would take minutes to run in turn, so it stays a launch where the
//   build has the device runtime.

#include "Analysis/LaunchSites.h"
#include "Transforms/Common/LaunchText.h"
#include <string>
#include <vector>

namespace launchopt {

struct GridGuard {
  std::vector<std::string> Lines; // bindings, each a statement
  std::string GridVar, BlockVar;
  std::string Launchable; // true when the launch would start
  std::string Fits;       // true when the grid is the ceiling of its count; empty: no count
  std::string Counts;     // for the report: the recovered counts
};

GridGuard guardLaunch(clang::ASTContext &Ctx, const LaunchSite &Site, const LaunchText &L);

// The statements of a removed launch: nothing when it would not start, the
// launch as written when its grid is implausible (only with -rdc, and only
// where the code may launch: KeepLaunch), else Run.
std::string guardedRun(const GridGuard &G, const LaunchText &L, const std::string &Run,
                       bool KeepLaunch = true);

} // namespace launchopt

#endif

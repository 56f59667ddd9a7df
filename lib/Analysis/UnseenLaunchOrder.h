#ifndef LAUNCHOPT_ANALYSIS_UNSEENLAUNCHORDER_H
#define LAUNCHOPT_ANALYSIS_UNSEENLAUNCHORDER_H

// Launches whose order with other launches of their thread the pairing of
// one function's launch sites does not show: a launch in a __device__
// function that a thread may enter more than once (two calls, a call in a
// loop or a lambda, recursion, its address taken) or after its caller
// launched, and the launches of a function that also calls __device__
// functions that launch. Into an ordered stream, such a launch may follow,
// or be followed by, children the passes cannot pair it with.

#include "LaunchSites.h"

namespace launchopt {

// Sets FollowsUnseenLaunches, FollowedByUnseenLaunches and UnseenOrder of
// the sites into ordered streams.
void markUnseenLaunchOrder(clang::ASTContext &Ctx, LaunchAnalysis &A);

} // namespace launchopt

#endif

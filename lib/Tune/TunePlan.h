#ifndef LAUNCHOPT_TUNE_TUNEPLAN_H
#define LAUNCHOPT_TUNE_TUNEPLAN_H

// plan.txt: what `launchopt tune --transform-only` leaves for the run half
// (launchopt-tune, or launchopt tune --from) to build and time.

#include "TuneSearch.h"
#include <map>
#include <string>

namespace launchopt {

// The input that was transformed, the space to search and one transformed
// file per variant.
struct TunePlan {
  std::string Input;
  TuneSpace Space;
  std::map<std::string, std::string> Sources; // variant -> file, relative to the plan's folder
};

std::string formatPlan(const TunePlan &Plan);
// Parses plan.txt text; on failure returns false with Error set.
bool parsePlan(const std::string &Text, TunePlan &Plan, std::string &Error);

// Reads DIR/plan.txt; on failure returns false with Error set.
bool loadPlan(const std::string &Dir, TunePlan &Plan, std::string &Error);

} // namespace launchopt

#endif

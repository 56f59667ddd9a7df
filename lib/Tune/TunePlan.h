#ifndef LAUNCHOPT_TUNE_TUNEPLAN_H
#define LAUNCHOPT_TUNE_TUNEPLAN_H

// plan.txt: what `launchopt tune --transform-only` leaves for the run half
// (launchopt-tune, or launchopt tune --from) to build and time.

#include "TuneSearch.h"
#include <map>
#include <optional>
#include <string>

namespace launchopt {

// The input that was transformed, the space to search and one transformed
// file per variant.
struct TunePlan {
  std::string Input;
  TuneSpace Space;
  std::map<std::string, std::string> Sources; // variant -> file, relative to the plan's folder
  // The guided search's start when not launchopt's defaults (launchopt tune
  // --auto: the cost model's choice). plan.txt: "start <variant> <values>",
  // the values in tuneMacros() order.
  std::optional<TuneConfig> Start;
};

std::string formatPlan(const TunePlan &Plan);
// The plan in plan.txt's text, or why it cannot be read.
OrError<TunePlan> parsePlan(const std::string &Text);

// The plan in DIR/plan.txt, or why it cannot be read.
OrError<TunePlan> loadPlan(const std::string &Dir);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_PLAN_SITEPLAN_H
#define LAUNCHOPT_PLAN_SITEPLAN_H

// --auto's choice: per device-side launch site, the candidate the cost model
// prices lowest among those whose passes take the site; then per program,
// one value per pass flag and option (a pass runs once per program).

#include "Candidates.h"
#include "LaunchCosts.h"
#include "SiteFacts.h"
#include "Transforms/PassResult.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace launchopt {

// A pass the plan runs, with its value and options, and the sites it must
// leave: per file (by index), input (line, column) -> the reason.
struct PlannedPass {
  std::string Flag;
  std::string Value;
  std::map<std::string, std::string> Options;
  std::vector<std::map<std::pair<unsigned, unsigned>, std::string>> Left;
};

struct ProgramPlan {
  std::vector<PlannedPass> Passes; // in the registry's order
  // One "auto" remark per site: the choice, the model's numbers, the facts
  // and why the other candidates lost.
  std::vector<LaunchRemark> Decisions;
};

// Fixed: flag -> value; a site whose choice uses the flag with another value
// takes the cheapest candidate with this one (launchopt tune --auto writes
// one file per aggregation granularity).
ProgramPlan planProgram(const std::vector<SiteFacts> &Sites, size_t Files, const LaunchCosts &Costs,
                        const std::map<std::string, std::string> &Fixed = {});

} // namespace launchopt

#endif

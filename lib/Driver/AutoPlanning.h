#ifndef LAUNCHOPT_DRIVER_AUTOPLANNING_H
#define LAUNCHOPT_DRIVER_AUTOPLANNING_H

// --auto: parses the program once, runs every pass a candidate of
// Plan/Candidates.h names alone on it (as the coverage summary does) to learn
// which sites each takes, gathers the sites' facts, lets Plan/SitePlan.h
// choose, and turns the plan into the pipeline: each pass it uses, made with
// the plan's value and options, told which sites to leave.

#include "TransformPipeline.h"
#include "Plan/LaunchCosts.h"
#include "Plan/SitePlan.h"
#include <vector>

namespace launchopt {

struct AutoPipeline {
  PipelineOptions Pipeline;
  std::vector<LaunchRemark> Decisions; // one "auto" remark per device-side site
  // The passes of the plan with their values and options (no sites).
  std::vector<PlannedPass> Planned;
};

llvm::Expected<AutoPipeline>
planAutoPipeline(const clang::tooling::CompilationDatabase &Compilations,
                 const std::vector<ProgramSource> &Sources, const ParseEnvironment &Env,
                 const SharedPassSettings &Shared, const LaunchCosts &Costs,
                 const std::map<std::string, std::string> &Fixed = {});

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TUNE_TUNESESSION_H
#define LAUNCHOPT_TUNE_TUNESESSION_H

// The run half of `launchopt tune`: builds and runs configurations through
// the user's commands, reads their times, searches, reports. Plain C++17 and
// POSIX (no LLVM or Clang), so that launchopt-tune runs on a GPU machine that
// has a host compiler and nvcc but no Clang.

#include "OrError.h"
#include "TunePlan.h"
#include "TuneSearch.h"
#include <iosfwd>
#include <optional>
#include <string>

namespace launchopt {

// The default --time-regex: the median of an OK line of the bench harness
// ("RESULT,app,dataset,variant,OK,reps,median_ms,...") or "time_ms=<number>".
extern const char *const DefaultTimeRegex;

// The time in a run's output: from the last line the regex matches, its first
// capture group that matched (the whole match when it has none), as a number.
std::optional<double> extractTime(const std::string &Output, const std::string &Regex);

struct TuneSessionOptions {
  std::string Dir;     // bin/, logs/ and tune.csv go here
  std::string PlanDir; // the plan's Sources are relative to this
  TunePlan Plan;
  TuneSpace Space; // what to search; its granularities must have a file in Plan
  std::string BuildCommand, RunCommand, TimeRegex = DefaultTimeRegex;
  unsigned GuidedRuns = 10;
  bool Exhaustive = true;
  // After the searches, run the Confirm fastest configurations again,
  // ConfirmRounds times each in turn, and pick the lowest median (0: don't).
  unsigned Confirm = 0;
  unsigned ConfirmRounds = 3;
  unsigned Jobs = 1;         // parallel builds
  double TimeoutSeconds = 0; // per build or run; 0: none
  bool BuildOnly = false;    // build every configuration, run nothing
  bool NoBuild = false;      // use executables an earlier --build-only left
};

// Usage problems of the commands, the regex and the flags.
CheckResult checkTuneCommands(const TuneSessionOptions &Options);

// Runs the session; Out gets the progress and the summary, Err the errors.
// Returns 0 when a best configuration was found, 1 when the input was wrong
// or every configuration failed.
int runTuneSession(const TuneSessionOptions &Options, std::ostream &Out, std::ostream &Err);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TUNE_TUNECOMMANDLINE_H
#define LAUNCHOPT_TUNE_TUNECOMMANDLINE_H

// The one command line of the tuner, read by `launchopt tune` and by
// launchopt-tune alike: the same options, checks, messages and help. Plain
// C++17, for launchopt-tune.

#include "TuneSession.h"
#include <map>
#include <string>
#include <vector>

namespace launchopt {

// Which program reads the command line: `launchopt tune` also transforms
// (an input file, --transform-only, --cuda-path); launchopt-tune only runs
// the plan a transform left (--from).
enum class TuneTool { Launchopt, RunHalf };

struct TuneCommandLine {
  std::string Input; // <file.cu>
  std::string From;  // --from
  std::string OutDir;
  std::string CudaPath;
  bool TransformOnly = false;
  // --auto: one --auto output per granularity, the guided search only,
  // started at the cost model's choice.
  bool Auto = false;
  bool Help = false;
  // The tunables' lists the user gave, by list option (--thresholds ...).
  std::map<std::string, std::string> Lists;
  TuneSessionOptions Session; // commands, searches, builds
};

// The command line in Args (after the program or subcommand name, before
// any "--"), or the usage error (exit 2). With --help, only Help is set.
OrError<TuneCommandLine> parseTuneCommandLine(const std::vector<std::string> &Args, TuneTool Tool);

// The lists to search: each list the user gave, else the plan's (with
// --from), else the registry's default; or the usage error.
OrError<TuneSpace> resolveTuneSpace(const TuneCommandLine &Line, const TunePlan *Plan);

std::string tuneHelp(TuneTool Tool);

} // namespace launchopt

#endif

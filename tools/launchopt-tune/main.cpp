// launchopt-tune: the build-run-search half of `launchopt tune`, for a machine
// that has nvcc and a GPU but no Clang. It links neither LLVM nor Clang, so it
// builds with one host-compiler command (see bench/tune) or with CMake.

#include "Tune/TuneSession.h"
#include <cstring>
#include <iostream>
#include <map>

namespace {

const char *const Usage =
    "launchopt-tune: builds, runs and searches launchopt's threshold, coarsening factor,\n"
    "aggregation granularity and aggregation threshold from files `launchopt tune\n"
    "--transform-only` wrote.\n\n"
    "  launchopt-tune --from DIR --build '<command>' --run '<command>' [options]\n\n"
    "  --from DIR              folder with plan.txt and the transformed files\n"
    "  --build '<command>'     shell command building one configuration; {src} the\n"
    "                          transformed file, {exe} the executable to write,\n"
    "                          {defines} the -D flags, {name} the configuration's name\n"
    "  --run '<command>'       shell command running {exe}; nonzero exit = failed\n"
    "  --time-regex RE         the time is the first matching group of the last output\n"
    "                          line RE matches (default: a bench harness RESULT,...,OK\n"
    "                          line's median, or time_ms=<number>)\n"
    "  --thresholds LIST       LAUNCHOPT_THRESHOLD values (default: the plan's)\n"
    "  --cfactors LIST         LAUNCHOPT_CFACTOR values (default: the plan's)\n"
    "  --granularities LIST    granularities, each with a file in the plan (default: the plan's)\n"
    "  --agg-thresholds LIST   LAUNCHOPT_AGG_THRESHOLD values, tried at warp and block\n"
    "                          granularity (default: the plan's, else 2)\n"
    "  --guided-runs N         runs of the guided search (default 10)\n"
    "  --no-exhaustive         skip the exhaustive sweep\n"
    "  --confirm N             then run the N fastest configurations again, in turn,\n"
    "                          and pick the lowest median (default 0: don't); for\n"
    "                          timings that move between processes\n"
    "  --confirm-rounds N      runs of each in the confirmation (default 3)\n"
    "  --out DIR               where bin/, logs/ and tune.csv go (default: the --from folder)\n"
    "  --jobs N                parallel builds (default 1)\n"
    "  --timeout SECONDS       per build or run (default: none)\n"
    "  --build-only            build every configuration and stop\n"
    "  --no-build              use the executables an earlier --build-only left\n\n"
    "Exit status: 0 a best configuration was found, 1 input error or every\n"
    "configuration failed, 2 bad command line.\n";

int usageError(const std::string &Message) {
  std::cerr << "launchopt-tune: error: " << Message << "\n";
  return 2;
}

bool parseCount(const std::string &Text, unsigned &Value) {
  auto List = launchopt::parseUnsignedList(Text);
  if (!List || List->size() != 1 || Text.find(',') != std::string::npos)
    return false;
  Value = List->front();
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  static const char *const Valued[] = {
      "--from",          "--build",       "--run", "--time-regex", "--thresholds", "--cfactors",
      "--granularities", "--guided-runs", "--out", "--jobs",       "--timeout",
      "--agg-thresholds", "--confirm", "--confirm-rounds"};
  static const char *const Flags[] = {"--no-exhaustive", "--build-only", "--no-build"};
  std::map<std::string, std::string> Values;
  std::map<std::string, bool> Set;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg == "--help" || Arg == "-h") {
      std::cout << Usage;
      return 0;
    }
    std::string Name = Arg.substr(0, Arg.find('='));
    bool Known = false;
    for (const char *V : Valued)
      if (Name == V) {
        Known = true;
        if (Arg.find('=') != std::string::npos)
          Values[Name] = Arg.substr(Arg.find('=') + 1);
        else if (I + 1 < Argc)
          Values[Name] = Argv[++I];
        else
          return usageError(Name + " needs a value");
      }
    for (const char *F : Flags)
      if (Arg == F)
        Known = Set[Arg] = true;
    if (!Known)
      return usageError("unknown argument '" + Arg + "' (see --help)");
  }
  if (!Values.count("--from"))
    return usageError("--from DIR is required (see --help)");

  launchopt::TuneSessionOptions Options;
  Options.PlanDir = Values["--from"];
  Options.Dir = Values.count("--out") ? Values["--out"] : Options.PlanDir;
  Options.BuildCommand = Values["--build"];
  Options.RunCommand = Values["--run"];
  if (Values.count("--time-regex"))
    Options.TimeRegex = Values["--time-regex"];
  if (Values.count("--guided-runs") && !parseCount(Values["--guided-runs"], Options.GuidedRuns))
    return usageError("--guided-runs takes a positive number");
  if (Values.count("--confirm") && Values["--confirm"] != "0" &&
      !parseCount(Values["--confirm"], Options.Confirm))
    return usageError("--confirm takes a number (0: no confirmation)");
  if (Values.count("--confirm-rounds") &&
      !parseCount(Values["--confirm-rounds"], Options.ConfirmRounds))
    return usageError("--confirm-rounds takes a positive number");
  if (Values.count("--jobs") && !parseCount(Values["--jobs"], Options.Jobs))
    return usageError("--jobs takes a positive number");
  unsigned Timeout = 0;
  if (Values.count("--timeout") && !parseCount(Values["--timeout"], Timeout))
    return usageError("--timeout takes a positive number of seconds");
  Options.TimeoutSeconds = Timeout;
  Options.Exhaustive = !Set["--no-exhaustive"];
  Options.BuildOnly = Set["--build-only"];
  Options.NoBuild = Set["--no-build"];
  std::string Problem = launchopt::checkTuneCommands(Options);
  if (!Problem.empty())
    return usageError(Problem);

  std::string Error;
  if (!launchopt::loadPlan(Options.PlanDir, Options.Plan, Error)) {
    std::cerr << "launchopt-tune: error: " << Error << "\n";
    return 1;
  }
  auto ListOr = [&](const char *Name, const std::string &PlanValue) {
    return Values.count(Name) ? Values[Name] : PlanValue;
  };
  Problem = launchopt::parseTuneSpace(
      ListOr("--thresholds", launchopt::formatList(Options.Plan.Space.Thresholds)),
      ListOr("--cfactors", launchopt::formatList(Options.Plan.Space.CoarsenFactors)),
      ListOr("--granularities", launchopt::formatList(Options.Plan.Space.Granularities)),
      Options.Space,
      ListOr("--agg-thresholds", launchopt::formatList(Options.Plan.Space.AggThresholds)));
  if (!Problem.empty())
    return usageError(Problem);
  return launchopt::runTuneSession(Options, std::cout, std::cerr);
}

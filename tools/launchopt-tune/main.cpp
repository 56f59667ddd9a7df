// launchopt-tune: the build-run-search half of `launchopt tune`, for a machine
// that has nvcc and a GPU but no Clang. It links neither LLVM nor Clang, so it
// builds with one host-compiler command (see bench/tune) or with CMake.

#include "Tune/TuneCommandLine.h"
#include <iostream>

int main(int Argc, char **Argv) {
  using namespace launchopt;
  auto Fail = [](int Code, const std::string &Message) {
    std::cerr << "launchopt-tune: error: " << Message << "\n";
    return Code;
  };
  OrError<TuneCommandLine> Line =
      parseTuneCommandLine(std::vector<std::string>(Argv + 1, Argv + Argc), TuneTool::RunHalf);
  if (!Line)
    return Fail(2, Line.error());
  if (Line->Help) {
    std::cout << tuneHelp(TuneTool::RunHalf);
    return 0;
  }

  TuneSessionOptions Options = Line->Session;
  Options.PlanDir = Line->From;
  Options.Dir = Line->OutDir.empty() ? Line->From : Line->OutDir;
  OrError<TunePlan> Plan = loadPlan(Options.PlanDir);
  if (!Plan)
    return Fail(1, Plan.error());
  Options.Plan = *Plan;
  OrError<TuneSpace> Space = resolveTuneSpace(*Line, &Options.Plan);
  if (!Space)
    return Fail(2, Space.error());
  Options.Space = *Space;
  return runTuneSession(Options, std::cout, std::cerr);
}

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
  TuneCommandLine Line;
  std::string Problem = parseTuneCommandLine(std::vector<std::string>(Argv + 1, Argv + Argc),
                                             TuneTool::RunHalf, Line);
  if (Line.Help) {
    std::cout << tuneHelp(TuneTool::RunHalf);
    return 0;
  }
  if (!Problem.empty())
    return Fail(2, Problem);

  TuneSessionOptions Options = Line.Session;
  Options.PlanDir = Line.From;
  Options.Dir = Line.OutDir.empty() ? Line.From : Line.OutDir;
  std::string Error;
  if (!loadPlan(Options.PlanDir, Options.Plan, Error))
    return Fail(1, Error);
  Problem = resolveTuneSpace(Line, &Options.Plan, Options.Space);
  if (!Problem.empty())
    return Fail(2, Problem);
  return runTuneSession(Options, std::cout, std::cerr);
}

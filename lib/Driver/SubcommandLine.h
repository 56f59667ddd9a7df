#ifndef LAUNCHOPT_DRIVER_SUBCOMMANDLINE_H
#define LAUNCHOPT_DRIVER_SUBCOMMANDLINE_H

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <vector>

namespace launchopt {

// A subcommand's arguments (those after its name) as a clang tool takes
// them: the compiler flags after "--" make a fixed compilation database (an
// empty one when there are none), and Args keeps "launchopt" and what came
// before "--", for cl::ParseCommandLineOptions.
struct SubcommandLine {
  std::vector<const char *> Args;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
};

SubcommandLine splitSubcommandLine(int Argc, const char **Argv);

} // namespace launchopt

#endif

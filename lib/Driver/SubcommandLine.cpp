#include "SubcommandLine.h"

namespace launchopt {

SubcommandLine splitSubcommandLine(int Argc, const char **Argv) {
  SubcommandLine Line;
  Line.Args = {"launchopt"};
  Line.Args.insert(Line.Args.end(), Argv, Argv + Argc);
  int ArgCount = static_cast<int>(Line.Args.size());
  std::string DatabaseError;
  // Compiler flags after "--" are the user's, as for every clang tool.
  Line.Database = clang::tooling::FixedCompilationDatabase::loadFromCommandLine(
      ArgCount, Line.Args.data(), DatabaseError);
  if (!Line.Database)
    Line.Database =
        std::make_unique<clang::tooling::FixedCompilationDatabase>(".", std::vector<std::string>{});
  Line.Args.resize(ArgCount);
  return Line;
}

} // namespace launchopt

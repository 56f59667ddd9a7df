#include "Driver.h"

#include "CrashStage.h"
#include "FuseCommand.h"
#include "TransformCommand.h"
#include "TuneCommand.h"
#include "llvm/ADT/StringRef.h"

namespace launchopt {

int runDriver(int Argc, const char **Argv) {
  installCrashHandlers(Argc ? Argv[0] : "launchopt");
  llvm::StringRef Subcommand = Argc > 1 ? Argv[1] : "";
  if (Subcommand == "fuse")
    return runFuseCommand(Argc - 1, Argv + 1);
  if (Subcommand == "tune")
    return runTuneCommand(Argc - 1, Argv + 1);
  return runTransformCommand(Argc, Argv);
}

} // namespace launchopt

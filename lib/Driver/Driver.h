#ifndef LAUNCHOPT_DRIVER_DRIVER_H
#define LAUNCHOPT_DRIVER_DRIVER_H

#include "CommandSupport.h"
#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// The `launchopt` command: dispatches to a subcommand (fuse, tune) or to
// the transform command.
int runDriver(int Argc, const char **Argv);

// The output text with each `#include <launchopt/NAME>` line a pass emitted
// replaced by the runtime header, so it compiles without launchopt.
llvm::Expected<std::string> embedRuntime(const std::string &Text);

} // namespace launchopt

#endif

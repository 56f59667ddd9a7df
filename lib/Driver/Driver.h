#ifndef LAUNCHOPT_DRIVER_DRIVER_H
#define LAUNCHOPT_DRIVER_DRIVER_H

#include "CommandSupport.h"
#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// The whole `launchopt` command: options, parse, analyse, passes, output.
int runDriver(int Argc, const char **Argv);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_DRIVER_DRIVER_H
#define LAUNCHOPT_DRIVER_DRIVER_H

namespace launchopt {

// Exit codes of the launchopt command.
enum ExitCode { ExitSuccess = 0, ExitInputError = 1, ExitUsageError = 2 };

// The whole `launchopt` command: options, parse, analyse, passes, output.
int runDriver(int Argc, const char **Argv);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_DRIVER_DRIVER_H
#define LAUNCHOPT_DRIVER_DRIVER_H

namespace launchopt {

// The `launchopt` command: dispatches to a subcommand (fuse, tune) or to
// the transform command.
int runDriver(int Argc, const char **Argv);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_DRIVER_FUSECOMMAND_H
#define LAUNCHOPT_DRIVER_FUSECOMMAND_H

namespace launchopt {

// `launchopt fuse ...`: kernel fusion of host-launched kernels (extraction,
// graphs, projection, search, code generation). Argv[0] is "fuse".
int runFuseCommand(int Argc, const char **Argv);

} // namespace launchopt

#endif

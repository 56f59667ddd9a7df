#ifndef LAUNCHOPT_DRIVER_TRANSFORMCOMMAND_H
#define LAUNCHOPT_DRIVER_TRANSFORMCOMMAND_H

namespace launchopt {

// `launchopt [options] <file.cu> [-- <flags>]`: the registered launch passes
// the options choose, or --list-launches.
int runTransformCommand(int Argc, const char **Argv);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_DRIVER_TUNECOMMAND_H
#define LAUNCHOPT_DRIVER_TUNECOMMAND_H

namespace launchopt {

// `launchopt tune ...`: transforms the input once per aggregation granularity
// (T+C+A), then builds and runs every configuration of threshold, coarsening
// factor and granularity through the user's commands and reports the best of
// a guided search next to the best of an exhaustive sweep. Argv[0] is "tune".
int runTuneCommand(int Argc, const char **Argv);

} // namespace launchopt

#endif

// Builds one random dynamic-parallelism program from a seed.
#ifndef LAUNCHOPT_DPGEN_GENERATOR_H
#define LAUNCHOPT_DPGEN_GENERATOR_H

#include "Program.h"

namespace dpgen {

/// Device-side launches one program may make at most, far below the default
/// pending-launch limit (2,048), so no launch is dropped in any variant.
constexpr unsigned LaunchBudget = 600;

/// The same seed gives the same program on every platform.
Program generateProgram(uint64_t Seed);

} // namespace dpgen

#endif

#ifndef LAUNCHOPT_FRONTEND_COMPILERFLAGS_H
#define LAUNCHOPT_FRONTEND_COMPILERFLAGS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include <string>

namespace launchopt {

// Where the tool finds what clang needs to parse CUDA 13 sources.
struct ParseEnvironment {
  std::string CudaPath;    // toolkit root, e.g. /usr/local/cuda
  std::string CompatDir;   // stand-ins for headers CUDA 13 removed
  std::string ResourceDir; // clang's builtin headers and CUDA wrappers
};

// The environment launchopt was built for, overridable from the command line.
ParseEnvironment defaultParseEnvironment();

// Turns a user's compile command (clang or nvcc style) into one clang can
// parse host-side: adds the CUDA flags and drops nvcc-only options.
clang::tooling::ArgumentsAdjuster cudaParseAdjuster(const ParseEnvironment &Env);

} // namespace launchopt

#endif

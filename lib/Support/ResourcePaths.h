#ifndef LAUNCHOPT_SUPPORT_RESOURCEPATHS_H
#define LAUNCHOPT_SUPPORT_RESOURCEPATHS_H

// Where launchopt finds its own files at run time. An installation is laid
// out like clang's, around the executable:
//   <prefix>/bin/launchopt
//   <prefix>/include/launchopt/*.cuh      the device runtime
//   <prefix>/share/launchopt/compat/      stand-ins for headers CUDA removed
//   <prefix>/share/launchopt/gpus/        GPU descriptions for fusion
// so an installed tree works wherever it is moved, with no path of the
// machine that built it.

#include <string>

namespace launchopt {

enum class Resource {
  RuntimeHeaders, // the include directory that holds launchopt/*.cuh
  CompatHeaders,
  GpuDescriptions,
};

// The directory of Kind, the first of:
//  1. under $LAUNCHOPT_RESOURCE_DIR, a directory laid out like a prefix, when
//     that variable is set (then the only place looked at);
//  2. under the prefix of the running executable, when it is there;
//  3. in the source tree, when the executable lies in the build tree it was
//     built in (an installed tool never reads the source tree);
//  4. where the prefix of the running executable should have it, so that
//     whoever fails to read it names the path of the installation.
std::string resourceDir(Resource Kind);

// The sentence to append to an error about a missing resource.
std::string resourceLookupHint();

} // namespace launchopt

#endif

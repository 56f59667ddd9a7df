#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_NVCCRESOURCES_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_NVCCRESOURCES_H

#include "FusionProblem.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>

namespace launchopt {

// What ptxas reports for one kernel (paper Table III: R_T and static SMEM).
struct KernelResources {
  unsigned Registers = 0;
  unsigned SharedMemoryBytes = 0;
  unsigned SpillBytes = 0; // spill stores
};

// Parses `nvcc --resource-usage` / `-Xptxas -v` output ("Compiling entry
// function '_Z6flux_x...'", "Used 20 registers, ... 1032 bytes smem") and
// the tabular form ("Function _Z...:", "REG:20 ... SHARED:1032"). Keys are
// the kernels' names as written (demangled, without namespace or
// parameters); an overloaded name keeps its largest figures.
std::map<std::string, KernelResources> parseNvccResourceUsage(llvm::StringRef Text);

// Sets R_T and the static shared memory of every kernel of the problem that
// the report names ("name#2" for a second launch of a kernel looks up
// "name"); returns how many kernels were found.
unsigned applyKernelResources(FusionProblem &P,
                              const std::map<std::string, KernelResources> &Resources);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_NVCCRESOURCES_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_NVCCRESOURCES_H

#include "FusionProblem.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
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

// Compiles File with `Nvcc -arch=sm_90 --resource-usage` and the -I, -D, -U
// and -std= flags among Flags (the others are for the host-side parse), and
// returns what ptxas printed.
llvm::Expected<std::string> runNvccResourceUsage(const std::string &Nvcc, const std::string &File,
                                                 llvm::ArrayRef<std::string> Flags);

// Sets R_T and the static shared memory of every kernel of the problem that
// the report names ("name#2" for a second launch of a kernel looks up
// "name"); returns how many kernels were found.
unsigned applyKernelResources(FusionProblem &P,
                              const std::map<std::string, KernelResources> &Resources);

} // namespace launchopt

#endif

#include "ThreadPacking.h"

#include "Transforms/Common/Refusal.h"
#include "Transforms/Common/SerialChildBuilder.h"

namespace launchopt {

llvm::Error threadPackingBlocker(const LaunchAnalysis &Launches, const clang::FunctionDecl &Child) {
  KernelFeatures F = featuresOf(Launches, Child);
  if (llvm::Error Blocker = serialCopyBlocker(F))
    return Blocker;
  if (!F.LaunchedKernels.empty())
    return refusal("child launches '" + *F.LaunchedKernels.begin() + "'");
  return llvm::Error::success();
}

} // namespace launchopt

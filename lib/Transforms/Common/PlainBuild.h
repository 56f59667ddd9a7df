#ifndef LAUNCHOPT_TRANSFORMS_COMMON_PLAINBUILD_H
#define LAUNCHOPT_TRANSFORMS_COMMON_PLAINBUILD_H

// Whether an output whose device-side launches are all removed still needs
// the device runtime (paper-free, CDP2: -rdc=true and -lcudadevrt): device
// code that calls its API does.

#include "Rewrite/SourceEdits.h"
#include "clang/AST/ASTContext.h"
#include <string>
#include <vector>

namespace launchopt {

struct DeviceRuntimeUse {
  // Device-side cudaGetLastError()/cudaPeekAtLastError() calls replaced by
  // cudaSuccess: with no launch and no other device runtime call left, no
  // error can be pending.
  std::vector<SourceEdit> ErrorQueries;
  // Every other device-side call into the device runtime, "name at line N".
  std::vector<std::string> OtherCalls;
};

DeviceRuntimeUse deviceRuntimeUse(clang::ASTContext &Ctx);

} // namespace launchopt

#endif

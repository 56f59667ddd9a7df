#ifndef LAUNCHOPT_TRANSFORMS_COMMON_PLAINBUILD_H
#define LAUNCHOPT_TRANSFORMS_COMMON_PLAINBUILD_H

// Whether an output whose device-side launches are all removed still needs
// the device runtime (paper-free, CDP2: -rdc=true and -lcudadevrt): device
// code that calls its API does.

#include "Rewrite/SourceEdits.h"
#include "clang/AST/ASTContext.h"
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace launchopt {

struct DeviceRuntimeUse {
  // Device-side cudaGetLastError()/cudaPeekAtLastError() calls replaced by
  // cudaSuccess: with no launch and no other device runtime call left, no
  // error can be pending.
  std::vector<SourceEdit> ErrorQueries;
  // Device-side cudaStreamCreate[WithFlags](&s, ...) and cudaStreamDestroy(s)
  // of a local stream s, each with the edit that makes it a call that returns
  // cudaSuccess (launchopt/persistent.cuh): where every launch into s is
  // recorded, s is never used (LaunchSite::CreatedStream). They are among
  // OtherCalls too.
  struct StreamLifetimeCall {
    const clang::VarDecl *Stream = nullptr;
    SourceEdit ToSuccess;
    std::string Where; // "name at line N"
  };
  std::vector<StreamLifetimeCall> StreamLifetimes;
  // Every other device-side call into the device runtime, "name at line N",
  // and the function each is written in (same order).
  std::vector<std::string> OtherCalls;
  std::vector<const clang::FunctionDecl *> OtherCallers;
  // Which of OtherCalls are error queries written in a macro's body
  // (`#define CHECK() if (cudaGetLastError() != ...)`): their text cannot be
  // edited, but code that expands the macro after a definition of the query
  // as a macro gets cudaSuccess (ErrorQueryMacros).
  std::set<size_t> MacroErrorQueries;
};

// The lines that make device-side error queries cudaSuccess in the code
// between them, where macros expand them: (#define, #undef).
std::pair<std::string, std::string> errorQueryMacros();

DeviceRuntimeUse deviceRuntimeUse(clang::ASTContext &Ctx);

} // namespace launchopt

#endif

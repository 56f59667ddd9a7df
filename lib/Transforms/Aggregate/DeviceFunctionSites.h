#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_DEVICEFUNCTIONSITES_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_DEVICEFUNCTIONSITES_H

// Launches written in __device__ functions (helpers, class members). The
// blocks that gather them are those of the kernels whose bodies reach the
// function through calls: each such kernel opens a scope for the launch, and
// its copied body calls a shadow copy of the function (and of the functions
// on the way) that takes every such scope as a parameter after the built-in
// index variables (ShadowCallees::alsoCopy, passAlso). Other callers keep
// calling the original, whose launch stays as written.

#include "AggregatePass.h"
#include "Transforms/Common/ShadowCallees.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace launchopt {

struct DeviceFunctionScopes {
  // By site id: the kernels (definitions) that gather a device function's
  // launch, in source order; or why none can.
  std::map<unsigned, std::vector<const clang::FunctionDecl *>> KernelsOf;
  std::map<unsigned, std::string> Refusals;
  // The device functions whose copies take the scopes.
  std::set<const clang::FunctionDecl *> Functions;

  bool empty() const { return KernelsOf.empty(); }
  // ", launchopt::AggregationScope *<scope>..." over every site of KernelsOf
  // (the shadow copies' extra parameters), and the matching argument names.
  std::string parameters() const;
  std::string arguments() const;
  std::vector<std::string> scopeVariables() const;
};

bool isKernel(const clang::FunctionDecl &F);

// The definition a launch's enclosing function stands for (a template's
// pattern), as DeviceFunctionScopes::Functions holds it.
const clang::FunctionDecl *definitionOrSelf(const clang::FunctionDecl *F);

// Finds the kernels for every device-side launch in a __device__ function,
// restricted to the functions in Only when given, and prepares Shadows (a
// fresh one) to copy those functions and the kernels to be copied.
DeviceFunctionScopes findDeviceFunctionScopes(clang::ASTContext &Ctx,
                                              const LaunchAnalysis &Launches,
                                              const AggregateOptions &Options,
                                              ShadowCallees &Shadows,
                                              const std::set<const clang::FunctionDecl *> *Only);

} // namespace launchopt

#endif

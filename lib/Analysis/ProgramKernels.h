#ifndef LAUNCHOPT_ANALYSIS_PROGRAMKERNELS_H
#define LAUNCHOPT_ANALYSIS_PROGRAMKERNELS_H

// The kernels by which the files of one program (separate compilation, -rdc)
// launch each other's children.

#include "clang/AST/ASTContext.h"
#include <map>
#include <string>

namespace launchopt {

// The name under which the files of a program agree on a kernel: its
// qualified name and its type, so that overloads stay apart.
std::string programKernelKey(const clang::FunctionDecl &F);

// The __global__ kernels defined in the main file that other files can
// launch (external linkage), by programKernelKey; templates included, so
// that a pass can say why it leaves them.
std::map<std::string, const clang::FunctionDecl *> programKernelDefinitions(clang::ASTContext &Ctx);

} // namespace launchopt

#endif

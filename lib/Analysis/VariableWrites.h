#ifndef LAUNCHOPT_ANALYSIS_VARIABLEWRITES_H
#define LAUNCHOPT_ANALYSIS_VARIABLEWRITES_H

#include "clang/AST/Decl.h"

namespace launchopt {

// Whether Var may be written in F other than by its own initialisation:
// assigned (also through a member), incremented, its address taken, or
// passed by non-const reference. A function without a body counts as
// writing it.
bool isWrittenIn(const clang::FunctionDecl *F, const clang::ValueDecl *Var);

} // namespace launchopt

#endif

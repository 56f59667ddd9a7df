#ifndef LAUNCHOPT_ANALYSIS_VARIABLEWRITES_H
#define LAUNCHOPT_ANALYSIS_VARIABLEWRITES_H

#include "clang/AST/Decl.h"

namespace launchopt {

// Whether Var may be written in F other than by its own initialisation:
// assigned (also through a member), incremented, its address taken, passed
// by non-const reference, bound to one, captured by reference, or the
// object of a non-const member call. A function without a body counts as
// writing it.
bool isWrittenIn(const clang::FunctionDecl *F, const clang::ValueDecl *Var);

// What a reference to a local (not a parameter or a reference) that nothing
// writes after its initialisation stands for: its initialiser
// (`int threads = 256;`, `int tid = threadIdx.x;`); null for anything else.
const clang::Expr *unwrittenLocalInitializer(const clang::Expr *E);

} // namespace launchopt

#endif

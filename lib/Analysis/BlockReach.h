#ifndef LAUNCHOPT_ANALYSIS_BLOCKREACH_H
#define LAUNCHOPT_ANALYSIS_BLOCKREACH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace launchopt {

// Whether every thread of the kernel's block evaluates S: it is not inside a
// branch, a loop, a short-circuit or conditional operator or a lambda, and no
// return or goto comes before it in the kernel's body. A collective operation
// over the block (a barrier) may then stand where S is.
bool reachedByWholeBlock(clang::ASTContext &Ctx, const clang::Stmt &S,
                         const clang::FunctionDecl &Kernel);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_COMMON_TEMPLATEDEDUCTION_H
#define LAUNCHOPT_TRANSFORMS_COMMON_TEMPLATEDEDUCTION_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <string>

namespace launchopt {

// The type a launch inside a template deduces for type parameter Index of
// the child template, written in the parent's own terms (`V` for a child
// `child(T *)` launched with a `V *` argument), or "" when no argument's
// type shows it. Clang keeps such a launch unresolved until the parent is
// instantiated; the generated code must name the arguments before that.
// The match is structural: a parameter of type T, T *, const T * or a
// reference to one of them, against an argument whose type is known.
std::string deducedInTemplate(const clang::ASTContext &Ctx, const clang::CallExpr &Launch,
                              const clang::FunctionTemplateDecl &Child, unsigned Index);

// The same, from a launch's argument expressions.
std::string deducedFromArguments(const clang::ASTContext &Ctx,
                                 llvm::ArrayRef<const clang::Expr *> Arguments,
                                 const clang::FunctionTemplateDecl &Child, unsigned Index);

// Whether a parameter of the child's pattern may name template parameter
// Index (and a launch then deduce it), so that its default is not
// necessarily what a launch leaving it out gets.
bool deducibleFromParameters(const clang::FunctionTemplateDecl &Child, unsigned Index);

} // namespace launchopt

#endif

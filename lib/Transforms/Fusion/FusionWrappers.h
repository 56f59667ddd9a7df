#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONWRAPPERS_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONWRAPPERS_H

// Launch sequences behind host wrappers (issue 21): a call `step(a, b, n);`
// of a host function that launches kernels is inlined into the sequence of
// the function being fused, each launch written with the wrapper's
// parameters replaced by the caller's arguments. The wrapper itself (in the
// main file or an included one) is never edited.

#include "Analysis/SourceText.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace launchopt {

// One inlined call: what each parameter of Wrapper stands for.
struct WrapperCall {
  const clang::FunctionDecl *Wrapper = nullptr;
  // Each parameter's argument as the host function writes it (already
  // substituted for an enclosing call), parenthesised where needed.
  std::map<const clang::ParmVarDecl *, std::string> Text;
  // Each parameter's argument expression, read in the enclosing call.
  std::map<const clang::ParmVarDecl *, const clang::Expr *> Argument;
  const WrapperCall *Outer = nullptr;
  FileRange Statement; // the outermost call statement, in the main file
  unsigned Line = 0;   // of that statement
};

// The text of E with the parameters of Call's wrapper replaced by their
// arguments and the wrapper's locals by their initialisers; without Call,
// E's text as written in the main file. Nothing when a piece of E comes from
// a macro, or E uses a local that cannot stand for its initialiser.
std::optional<std::string> substitutedText(const clang::ASTContext &Ctx, const clang::Expr *E,
                                           const WrapperCall *Call);

// Why the body of Wrapper cannot be inlined: a statement other than
// launches, calls of wrappers, declarations of locals without side effects
// and checks of the last error (left out of the inlined sequence); empty
// when it can.
// Inlined: whether a statement of the body is a launch or a wrapper call.
std::string inliningObstacle(const clang::ASTContext &Ctx, const clang::FunctionDecl &Wrapper,
                             const std::function<bool(const clang::Stmt *)> &Inlined);

} // namespace launchopt

#endif

#include "ConstantOperand.h"

#include "Analysis/LaunchSites.h"
#include "Analysis/VariableWrites.h"
#include "clang/AST/ExprCXX.h"

namespace launchopt {

namespace {

// A const variable, or a local never written after its initialisation, as
// real code names its launch shape (`int threads = 256;`,
// `dim3 block(16, 16);`): the expression it was initialised with. Depth
// bounds a chain of such variables.
const clang::Expr *definingExpr(const clang::Expr *E, unsigned Depth = 0) {
  E = stripConstruction(E);
  // A copy construction (`dim3 b = block;` or the launch's copy of `block`).
  if (auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E))
    if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      E = stripConstruction(C->getArg(0));
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
  auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || Depth > 4)
    return E;
  if (Var->getType().isConstQualified() && !llvm::isa<clang::ParmVarDecl>(Var) && Var->getInit() &&
      !Var->getType()->isReferenceType())
    return definingExpr(Var->getInit(), Depth + 1);
  const clang::Expr *Init = unwrittenLocalInitializer(E);
  return Init ? definingExpr(Init, Depth + 1) : E;
}

} // namespace

const clang::Expr *stripConstruction(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *Cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else if (auto *M = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (auto *B = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (auto *C = llvm::dyn_cast<clang::ExprWithCleanups>(E))
      E = C->getSubExpr();
    else
      return E;
  }
}

std::optional<uint64_t> constantInteger(const clang::ASTContext &Ctx, const clang::Expr *E) {
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx)) {
    const clang::Expr *Defining = definingExpr(E);
    return Defining != stripConstruction(E) ? constantInteger(Ctx, Defining) : std::nullopt;
  }
  if (R.Val.getInt().isNegative())
    return std::nullopt;
  return R.Val.getInt().getZExtValue();
}

std::optional<uint64_t> constantOperand(const clang::ASTContext &Ctx, const clang::Expr *Operand) {
  const clang::Expr *E = definingExpr(writtenOperand(Operand));
  if (std::optional<uint64_t> N = constantInteger(Ctx, E))
    return N;
  auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E);
  if (!C || C->getNumArgs() == 0)
    return std::nullopt;
  uint64_t Product = 1;
  for (const clang::Expr *Arg : C->arguments()) {
    std::optional<uint64_t> N = constantInteger(Ctx, Arg->IgnoreParenImpCasts());
    if (!N)
      return std::nullopt;
    Product *= *N;
  }
  return Product;
}

std::optional<std::array<uint64_t, 3>> constantShape(const clang::ASTContext &Ctx,
                                                     const clang::Expr *Operand) {
  const clang::Expr *E = definingExpr(writtenOperand(Operand));
  if (std::optional<uint64_t> N = constantInteger(Ctx, E))
    return std::array<uint64_t, 3>{*N, 1, 1};
  auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E);
  if (!C || C->getNumArgs() == 0 || C->getNumArgs() > 3)
    return std::nullopt;
  std::array<uint64_t, 3> Shape{1, 1, 1};
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    std::optional<uint64_t> N = constantInteger(Ctx, C->getArg(I)->IgnoreParenImpCasts());
    if (!N)
      return std::nullopt;
    Shape[I] = *N;
  }
  return Shape;
}

} // namespace launchopt

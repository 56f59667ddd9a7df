#include "VariableWrites.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace launchopt {

namespace {

class WriteFinder : public clang::RecursiveASTVisitor<WriteFinder> {
public:
  explicit WriteFinder(const clang::ValueDecl *Var) : Var(Var) {}
  bool Written = false;

  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    if (B->isAssignmentOp() && refersTo(B->getLHS()))
      Written = true;
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_AddrOf) &&
        refersTo(U->getSubExpr()))
      Written = true;
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *C) {
    if (C->getNumArgs() > 0 && refersTo(C->getArg(0)) &&
        (C->isAssignmentOp() || C->getOperator() == clang::OO_PlusPlus ||
         C->getOperator() == clang::OO_MinusMinus))
      Written = true;
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *C) {
    // Passing by non-const reference may write it.
    const clang::FunctionDecl *F = C->getDirectCallee();
    for (unsigned I = 0; F && I < C->getNumArgs() && I < F->getNumParams(); ++I) {
      clang::QualType T = F->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified() && refersTo(C->getArg(I)))
        Written = true;
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *C) {
    const clang::CXXMethodDecl *M = C->getMethodDecl();
    if (M && !M->isConst() && refersTo(C->getImplicitObjectArgument()))
      Written = true;
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *D) {
    // A non-const reference bound to it may write it.
    clang::QualType T = D->getType();
    if (T->isReferenceType() && !T->getPointeeType().isConstQualified() && D->getInit() &&
        refersTo(D->getInit()))
      Written = true;
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr *L) {
    for (const clang::LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == clang::LCK_ByRef &&
          C.getCapturedVar() == Var)
        Written = true;
    return true;
  }

private:
  bool refersTo(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (auto *M = llvm::dyn_cast<clang::MemberExpr>(E))
      E = M->getBase()->IgnoreParenImpCasts();
    auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
    return Ref && Ref->getDecl() == Var;
  }
  const clang::ValueDecl *Var;
};

} // namespace

bool isWrittenIn(const clang::FunctionDecl *F, const clang::ValueDecl *Var) {
  if (!F || !F->getBody())
    return true;
  WriteFinder Finder(Var);
  Finder.TraverseStmt(F->getBody());
  return Finder.Written;
}

const clang::Expr *unwrittenLocalInitializer(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
  const auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || llvm::isa<clang::ParmVarDecl>(Var) || !Var->hasLocalStorage() || !Var->getInit() ||
      Var->getType()->isReferenceType())
    return nullptr;
  const auto *Function =
      llvm::dyn_cast_or_null<clang::FunctionDecl>(Var->getParentFunctionOrMethod());
  return Function && !isWrittenIn(Function, Var) ? Var->getInit() : nullptr;
}

} // namespace launchopt

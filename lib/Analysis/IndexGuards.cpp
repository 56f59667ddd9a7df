#include "IndexGuards.h"

#include "KernelFeatures.h"
#include "VariableWrites.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

namespace launchopt {

namespace {

// The axis (0, 1, 2) of `threadIdx.x/y/z` (or blockIdx's), also through an
// unwritten local initialised from it; -1 for anything else.
int indexAxis(const clang::Expr *E, IndexVariable V, unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!Var || Depth > 4 || llvm::isa<clang::ParmVarDecl>(Var) || !Var->hasLocalStorage() ||
        !Var->getInit() || Var->getType()->isReferenceType())
      return -1;
    const auto *Function =
        llvm::dyn_cast_or_null<clang::FunctionDecl>(Var->getParentFunctionOrMethod());
    if (!Function || isWrittenIn(Function, Var))
      return -1;
    return indexAxis(Var->getInit(), V, Depth + 1);
  }
  if (const auto *P = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
    E = P->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *Property = llvm::dyn_cast<clang::MSPropertyRefExpr>(E);
  if (!Property)
    return -1;
  const clang::DeclRefExpr *Base = builtinIndexBase(*Property);
  if (!Base || Base->getDecl()->getName() != (V == IndexVariable::Thread ? "threadIdx" : "blockIdx"))
    return -1;
  llvm::StringRef Member = Property->getPropertyDecl()->getName();
  return Member == "x" ? 0 : Member == "y" ? 1 : Member == "z" ? 2 : -1;
}

bool isZero(const clang::Expr *E) {
  const auto *Literal = llvm::dyn_cast<clang::IntegerLiteral>(E->IgnoreParenImpCasts());
  return Literal && Literal->getValue() == 0;
}

// The axis an `index <op> 0` comparison (either side) tests, for the
// operators given, or -1.
int comparedAxis(const clang::BinaryOperator &B, IndexVariable V,
                 std::initializer_list<clang::BinaryOperatorKind> IndexLeft,
                 std::initializer_list<clang::BinaryOperatorKind> IndexRight) {
  for (clang::BinaryOperatorKind Op : IndexLeft)
    if (B.getOpcode() == Op && isZero(B.getRHS()))
      return indexAxis(B.getLHS(), V);
  for (clang::BinaryOperatorKind Op : IndexRight)
    if (B.getOpcode() == Op && isZero(B.getLHS()))
      return indexAxis(B.getRHS(), V);
  return -1;
}

unsigned bit(int Axis) { return Axis >= 0 ? 1u << Axis : 0; }

// A `return;` (or `return value;`), alone or braced.
bool isReturn(const clang::Stmt *S) {
  if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(S))
    return Block->size() == 1 && isReturn(Block->body_front());
  return llvm::isa_and_nonnull<clang::ReturnStmt>(S);
}

} // namespace

unsigned zeroWhenTrue(const clang::Expr *Cond, IndexVariable V) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond)) {
    if (B->getOpcode() == clang::BO_LAnd)
      return zeroWhenTrue(B->getLHS(), V) | zeroWhenTrue(B->getRHS(), V);
    return bit(comparedAxis(*B, V, {clang::BO_EQ}, {clang::BO_EQ}));
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond))
    if (U->getOpcode() == clang::UO_LNot)
      return bit(indexAxis(U->getSubExpr(), V)) | zeroWhenFalse(U->getSubExpr(), V);
  return 0;
}

unsigned zeroWhenFalse(const clang::Expr *Cond, IndexVariable V) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond)) {
    if (B->getOpcode() == clang::BO_LOr)
      return zeroWhenFalse(B->getLHS(), V) | zeroWhenFalse(B->getRHS(), V);
    // The indices are unsigned: `i > 0` fails only at zero.
    return bit(comparedAxis(*B, V, {clang::BO_NE, clang::BO_GT}, {clang::BO_NE, clang::BO_LT}));
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond))
    if (U->getOpcode() == clang::UO_LNot)
      return zeroWhenTrue(U->getSubExpr(), V);
  return bit(indexAxis(Cond, V));
}

unsigned zeroAfterEarlyReturns(const clang::CompoundStmt &Body, const clang::Stmt *Reached,
                               IndexVariable V) {
  unsigned Axes = 0;
  for (const clang::Stmt *S : Body.body()) {
    if (S == Reached)
      break;
    const auto *If = llvm::dyn_cast<clang::IfStmt>(S);
    if (If && !If->getElse() && !If->getConditionVariable() && !If->getInit() &&
        isReturn(If->getThen()))
      Axes |= zeroWhenFalse(If->getCond(), V);
  }
  return Axes;
}

} // namespace launchopt

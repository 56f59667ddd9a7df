#include "IndexGuards.h"

#include "CooperativeGroups.h"
#include "KernelFeatures.h"
#include "VariableWrites.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace launchopt {

namespace {

// A factor that is never zero: blockDim.*, gridDim.* or a positive constant.
bool isPositiveFactor(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (auto Member = builtinMember(E))
    return Member->first == "blockDim" || Member->first == "gridDim";
  const auto *Literal = llvm::dyn_cast<clang::IntegerLiteral>(E);
  return Literal && !Literal->getValue().isZero();
}

// The axes of an index, as code writes one: `threadIdx.x`, or a linear
// index `threadIdx.x + threadIdx.y * blockDim.x (+ threadIdx.z * ...)`, also
// through unwritten locals. It is zero exactly when it is zero along each of
// them, since every term is an unsigned index times a positive factor.
std::optional<unsigned> indexAxes(const clang::Expr *E, IndexVariable V, unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 8)
    return std::nullopt;
  if (const clang::Expr *Init = unwrittenLocalInitializer(E))
    return indexAxes(Init, V, Depth + 1);
  if (auto Member = builtinMember(E)) {
    if (Member->first != (V == IndexVariable::Thread ? "threadIdx" : "blockIdx"))
      return std::nullopt;
    return 1u << Member->second;
  }
  // A thread block's rank (cooperative groups: `block.thread_rank()`) is
  // the linear thread index, zero exactly when threadIdx is zero.
  if (auto *Call = llvm::dyn_cast<clang::CallExpr>(E); Call && V == IndexVariable::Thread) {
    const clang::Decl *Callee = Call->getCalleeDecl();
    std::optional<GroupQuery> Query =
        Callee ? groupQueryOf(Callee->getASTContext(), *Call) : std::nullopt;
    if (Query && Query->Group == "thread_block" && Query->Member == "thread_rank")
      return 7u;
    return std::nullopt;
  }
  const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  if (B->getOpcode() == clang::BO_Add) {
    std::optional<unsigned> L = indexAxes(B->getLHS(), V, Depth + 1);
    std::optional<unsigned> R = indexAxes(B->getRHS(), V, Depth + 1);
    if (L && R)
      return *L | *R;
    return std::nullopt;
  }
  if (B->getOpcode() == clang::BO_Mul) {
    if (isPositiveFactor(B->getRHS()))
      return indexAxes(B->getLHS(), V, Depth + 1);
    if (isPositiveFactor(B->getLHS()))
      return indexAxes(B->getRHS(), V, Depth + 1);
  }
  return std::nullopt;
}

unsigned axesOf(const clang::Expr *E, IndexVariable V) { return indexAxes(E, V).value_or(0); }

bool isZero(const clang::Expr *E) {
  const auto *Literal = llvm::dyn_cast<clang::IntegerLiteral>(E->IgnoreParenImpCasts());
  return Literal && Literal->getValue() == 0;
}

// Whether every thread of one block computes E alike: literals, constants,
// template parameters, blockDim, gridDim, blockIdx, unwritten locals of
// such values, and arithmetic over them.
bool isBlockInvariant(const clang::Expr *E, unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 8)
    return false;
  if (llvm::isa<clang::IntegerLiteral, clang::SubstNonTypeTemplateParmExpr>(E))
    return true;
  if (auto Member = builtinMember(E))
    return Member->first != "threadIdx";
  if (const clang::Expr *Init = unwrittenLocalInitializer(E))
    return isBlockInvariant(Init, Depth + 1);
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const clang::ValueDecl *D = Ref->getDecl();
    if (llvm::isa<clang::NonTypeTemplateParmDecl, clang::EnumConstantDecl>(D))
      return true;
    auto *Var = llvm::dyn_cast<clang::VarDecl>(D);
    return Var && Var->getType().isConstQualified() && Var->getInit() &&
           isBlockInvariant(Var->getInit(), Depth + 1);
  }
  if (auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(E))
    return isBlockInvariant(Cast->getSubExpr(), Depth + 1);
  if (auto *U = llvm::dyn_cast<clang::UnaryOperator>(E))
    return U->getOpcode() == clang::UO_Minus && isBlockInvariant(U->getSubExpr(), Depth + 1);
  if (auto *B = llvm::dyn_cast<clang::BinaryOperator>(E))
    return (B->isAdditiveOp() || B->isMultiplicativeOp() || B->isShiftOp() || B->isBitwiseOp()) &&
           isBlockInvariant(B->getLHS(), Depth + 1) && isBlockInvariant(B->getRHS(), Depth + 1);
  return false;
}

// Whether an index compared with E is pinned by it: zero, or for Pin
// BlockInvariant a value the whole block shares (threadIdx only: a block
// index compared with a block's own value pins nothing across blocks).
bool pins(const clang::Expr *E, IndexVariable V, IndexPin Pin) {
  return isZero(E) ||
         (Pin == IndexPin::BlockInvariant && V == IndexVariable::Thread && isBlockInvariant(E));
}

// The axes an `index <op> 0` comparison (either side) tests, for the
// operators given, or none; with Equality, `==` and `!=` against a value
// that pins the index count too.
unsigned comparedAxes(const clang::BinaryOperator &B, IndexVariable V, IndexPin Pin,
                      std::initializer_list<clang::BinaryOperatorKind> IndexLeft,
                      std::initializer_list<clang::BinaryOperatorKind> IndexRight) {
  bool Equality = B.getOpcode() == clang::BO_EQ || B.getOpcode() == clang::BO_NE;
  for (clang::BinaryOperatorKind Op : IndexLeft)
    if (B.getOpcode() == Op && (Equality ? pins(B.getRHS(), V, Pin) : isZero(B.getRHS())))
      if (unsigned Axes = axesOf(B.getLHS(), V))
        return Axes;
  for (clang::BinaryOperatorKind Op : IndexRight)
    if (B.getOpcode() == Op && (Equality ? pins(B.getLHS(), V, Pin) : isZero(B.getLHS())))
      return axesOf(B.getRHS(), V);
  return 0;
}

// A `return;` (or `return value;`), alone or braced.
bool isReturn(const clang::Stmt *S) {
  if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(S))
    return Block->size() == 1 && isReturn(Block->body_front());
  return llvm::isa_and_nonnull<clang::ReturnStmt>(S);
}

} // namespace

unsigned zeroWhenTrue(const clang::Expr *Cond, IndexVariable V, IndexPin Pin) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond)) {
    if (B->getOpcode() == clang::BO_LAnd)
      return zeroWhenTrue(B->getLHS(), V, Pin) | zeroWhenTrue(B->getRHS(), V, Pin);
    return comparedAxes(*B, V, Pin, {clang::BO_EQ}, {clang::BO_EQ});
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond))
    if (U->getOpcode() == clang::UO_LNot)
      return zeroWhenFalse(U->getSubExpr(), V, Pin);
  return 0;
}

unsigned zeroWhenFalse(const clang::Expr *Cond, IndexVariable V, IndexPin Pin) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond)) {
    if (B->getOpcode() == clang::BO_LOr)
      return zeroWhenFalse(B->getLHS(), V, Pin) | zeroWhenFalse(B->getRHS(), V, Pin);
    // The indices are unsigned: `i > 0` fails only at zero.
    return comparedAxes(*B, V, Pin, {clang::BO_NE, clang::BO_GT}, {clang::BO_NE, clang::BO_LT});
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond))
    if (U->getOpcode() == clang::UO_LNot)
      return zeroWhenTrue(U->getSubExpr(), V, Pin);
  return axesOf(Cond, V);
}

unsigned zeroAfterEarlyReturns(const clang::CompoundStmt &Body, const clang::Stmt *Reached,
                               IndexVariable V, IndexPin Pin) {
  unsigned Axes = 0;
  for (const clang::Stmt *S : Body.body()) {
    if (S == Reached)
      break;
    const auto *If = llvm::dyn_cast<clang::IfStmt>(S);
    if (If && !If->getElse() && !If->getConditionVariable() && !If->getInit() &&
        isReturn(If->getThen()))
      Axes |= zeroWhenFalse(If->getCond(), V, Pin);
  }
  return Axes;
}

} // namespace launchopt

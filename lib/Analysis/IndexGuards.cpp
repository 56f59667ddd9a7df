#include "IndexGuards.h"

#include "CooperativeGroups.h"
#include "KernelFeatures.h"
#include "VariableWrites.h"
#include "clang/AST/Decl.h"
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

// The axes an `index <op> 0` comparison (either side) tests, for the
// operators given, or none.
unsigned comparedAxes(const clang::BinaryOperator &B, IndexVariable V,
                      std::initializer_list<clang::BinaryOperatorKind> IndexLeft,
                      std::initializer_list<clang::BinaryOperatorKind> IndexRight) {
  for (clang::BinaryOperatorKind Op : IndexLeft)
    if (B.getOpcode() == Op && isZero(B.getRHS()))
      return axesOf(B.getLHS(), V);
  for (clang::BinaryOperatorKind Op : IndexRight)
    if (B.getOpcode() == Op && isZero(B.getLHS()))
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

unsigned zeroWhenTrue(const clang::Expr *Cond, IndexVariable V) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond)) {
    if (B->getOpcode() == clang::BO_LAnd)
      return zeroWhenTrue(B->getLHS(), V) | zeroWhenTrue(B->getRHS(), V);
    return comparedAxes(*B, V, {clang::BO_EQ}, {clang::BO_EQ});
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond))
    if (U->getOpcode() == clang::UO_LNot)
      return zeroWhenFalse(U->getSubExpr(), V);
  return 0;
}

unsigned zeroWhenFalse(const clang::Expr *Cond, IndexVariable V) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond)) {
    if (B->getOpcode() == clang::BO_LOr)
      return zeroWhenFalse(B->getLHS(), V) | zeroWhenFalse(B->getRHS(), V);
    // The indices are unsigned: `i > 0` fails only at zero.
    return comparedAxes(*B, V, {clang::BO_NE, clang::BO_GT}, {clang::BO_NE, clang::BO_LT});
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond))
    if (U->getOpcode() == clang::UO_LNot)
      return zeroWhenTrue(U->getSubExpr(), V);
  return axesOf(Cond, V);
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

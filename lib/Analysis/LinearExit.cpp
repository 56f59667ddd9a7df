#include "LinearExit.h"

#include "KernelFeatures.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include <map>

namespace launchopt {

namespace {

// Locals declared before the guard, with their initializers.
using Locals = std::map<const clang::VarDecl *, const clang::Expr *>;

bool wideInteger(clang::QualType T, const clang::ASTContext &Ctx) {
  return T->isIntegerType() && !T->isBooleanType() && Ctx.getTypeSize(T) >= 32;
}

// Parentheses, implicit conversions and explicit casts to wide integers:
// none of them changes the order of index values that do not wrap.
const clang::Expr *strip(const clang::Expr *E, const clang::ASTContext &Ctx) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(E);
    if (!Cast || !wideInteger(Cast->getType(), Ctx))
      return E;
    E = Cast->getSubExpr();
  }
}

// "blockIdx.x" and the like: the variable and the member, or nothing.
std::optional<std::pair<llvm::StringRef, llvm::StringRef>> builtinMember(const clang::Expr *E) {
  if (auto *Pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
    E = Pseudo->getSyntacticForm()->IgnoreParens();
  auto *Property = llvm::dyn_cast<clang::MSPropertyRefExpr>(E);
  if (!Property)
    return std::nullopt;
  const clang::DeclRefExpr *Base = builtinIndexBase(*Property);
  if (!Base)
    return std::nullopt;
  return std::make_pair(Base->getDecl()->getName(), Property->getPropertyDecl()->getName());
}

bool isBuiltin(const clang::Expr *E, llvm::StringRef Variable, llvm::StringRef Member) {
  auto B = builtinMember(E);
  return B && B->first == Variable && B->second == Member;
}

// Whether every thread of the grid computes the same value for E.
bool invariant(const clang::Expr *E, const Locals &Before, const clang::ASTContext &Ctx) {
  E = E->IgnoreParenCasts();
  if (llvm::isa<clang::IntegerLiteral, clang::CharacterLiteral, clang::CXXBoolLiteralExpr,
                clang::FloatingLiteral, clang::UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (auto B = builtinMember(E))
    return B->first == "blockDim" || B->first == "gridDim";
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const clang::ValueDecl *D = Ref->getDecl();
    if (llvm::isa<clang::EnumConstantDecl, clang::NonTypeTemplateParmDecl>(D))
      return true;
    if (auto *Param = llvm::dyn_cast<clang::ParmVarDecl>(D))
      return !Param->getType()->isReferenceType();
    auto *Var = llvm::dyn_cast<clang::VarDecl>(D);
    if (!Var)
      return false;
    auto Local = Before.find(Var);
    if (Local != Before.end())
      return invariant(Local->second, Before, Ctx);
    return Var->isConstexpr();
  }
  if (auto *Member = llvm::dyn_cast<clang::MemberExpr>(E))
    return !Member->isArrow() && llvm::isa<clang::FieldDecl>(Member->getMemberDecl()) &&
           invariant(Member->getBase(), Before, Ctx);
  if (auto *Binary = llvm::dyn_cast<clang::BinaryOperator>(E))
    return !Binary->isAssignmentOp() && !Binary->isCompoundAssignmentOp() &&
           Binary->getOpcode() != clang::BO_Comma && invariant(Binary->getLHS(), Before, Ctx) &&
           invariant(Binary->getRHS(), Before, Ctx);
  if (auto *Unary = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    clang::UnaryOperatorKind Op = Unary->getOpcode();
    return (Op == clang::UO_Plus || Op == clang::UO_Minus || Op == clang::UO_Not ||
            Op == clang::UO_LNot) &&
           invariant(Unary->getSubExpr(), Before, Ctx);
  }
  if (auto *Conditional = llvm::dyn_cast<clang::ConditionalOperator>(E))
    return invariant(Conditional->getCond(), Before, Ctx) &&
           invariant(Conditional->getTrueExpr(), Before, Ctx) &&
           invariant(Conditional->getFalseExpr(), Before, Ctx);
  return false;
}

// The additive terms of an index expression, locals replaced by their
// initializers; a term subtracted is marked.
struct Term {
  const clang::Expr *E;
  bool Subtracted;
};

bool collectTerms(const clang::Expr *E, bool Subtracted, const Locals &Before,
                  const clang::ASTContext &Ctx, std::vector<Term> &Terms) {
  E = strip(E, Ctx);
  if (auto *Binary = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    if (Binary->getOpcode() == clang::BO_Add)
      return collectTerms(Binary->getLHS(), Subtracted, Before, Ctx, Terms) &&
             collectTerms(Binary->getRHS(), Subtracted, Before, Ctx, Terms);
    if (Binary->getOpcode() == clang::BO_Sub)
      return collectTerms(Binary->getLHS(), Subtracted, Before, Ctx, Terms) &&
             collectTerms(Binary->getRHS(), !Subtracted, Before, Ctx, Terms);
  }
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
    if (auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl())) {
      auto Local = Before.find(Var);
      if (Local != Before.end()) {
        if (!wideInteger(Var->getType(), Ctx))
          return false;
        return collectTerms(Local->second, Subtracted, Before, Ctx, Terms);
      }
    }
  Terms.push_back({E, Subtracted});
  return true;
}

bool isBlockOffset(const clang::Expr *E, const clang::ASTContext &Ctx) {
  auto *Product = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!Product || Product->getOpcode() != clang::BO_Mul)
    return false;
  const clang::Expr *L = strip(Product->getLHS(), Ctx), *R = strip(Product->getRHS(), Ctx);
  return (isBuiltin(L, "blockIdx", "x") && isBuiltin(R, "blockDim", "x")) ||
         (isBuiltin(L, "blockDim", "x") && isBuiltin(R, "blockIdx", "x"));
}

// Whether E is an offset every thread sees alike plus blockIdx.x *
// blockDim.x + threadIdx.x. Compared as Unsigned, the offset's terms must
// be unsigned and added: a negative one would wrap below the first threads.
bool linearXIndex(const clang::Expr *E, bool Unsigned, const Locals &Before,
                  const clang::ASTContext &Ctx) {
  std::vector<Term> Terms;
  if (!collectTerms(E, false, Before, Ctx, Terms))
    return false;
  unsigned Threads = 0, Blocks = 0;
  for (const Term &T : Terms) {
    if (!T.Subtracted && isBuiltin(T.E, "threadIdx", "x")) {
      ++Threads;
    } else if (!T.Subtracted && isBlockOffset(T.E, Ctx)) {
      ++Blocks;
    } else if (!invariant(T.E, Before, Ctx)) {
      return false;
    } else if (Unsigned && (T.Subtracted || !T.E->getType()->isUnsignedIntegerType())) {
      return false;
    }
  }
  return Threads == 1 && Blocks == 1;
}

// Whether Comparison grows from false to true along the x index (Rising)
// or from true to false.
bool monotoneComparison(const clang::Expr *E, bool Rising, const Locals &Before,
                        const clang::ASTContext &Ctx) {
  auto *Compare = llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParens());
  if (!Compare || !Compare->isRelationalOp())
    return false;
  clang::QualType Operands = Compare->getLHS()->getType();
  if (!wideInteger(Operands, Ctx))
    return false;
  bool Unsigned = Operands->isUnsignedIntegerType();
  bool Greater = Compare->getOpcode() == clang::BO_GT || Compare->getOpcode() == clang::BO_GE;
  // Index on the left: `i >= n` rises. Index on the right: `n <= i` rises.
  if (linearXIndex(Compare->getLHS(), Unsigned, Before, Ctx) &&
      invariant(Compare->getRHS(), Before, Ctx))
    return Greater == Rising;
  if (linearXIndex(Compare->getRHS(), Unsigned, Before, Ctx) &&
      invariant(Compare->getLHS(), Before, Ctx))
    return Greater != Rising;
  return false;
}

// The operands of a chain of one logical operator.
void operandsOf(const clang::Expr *E, clang::BinaryOperatorKind Op,
                std::vector<const clang::Expr *> &Out) {
  auto *Binary = llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParens());
  if (Binary && Binary->getOpcode() == Op) {
    operandsOf(Binary->getLHS(), Op, Out);
    operandsOf(Binary->getRHS(), Op, Out);
    return;
  }
  Out.push_back(E);
}

bool isPlainReturn(const clang::Stmt *S) {
  if (auto *Block = llvm::dyn_cast<clang::CompoundStmt>(S))
    return Block->size() == 1 && isPlainReturn(Block->body_front());
  auto *Return = llvm::dyn_cast<clang::ReturnStmt>(S);
  return Return && !Return->getRetValue();
}

// An expression that reads and computes but writes nothing and calls
// nothing (the built-in index variables are calls to Clang, not to us).
bool readsOnly(const clang::Expr *E) {
  E = E->IgnoreParenCasts();
  if (builtinMember(E))
    return true;
  if (llvm::isa<clang::IntegerLiteral, clang::CharacterLiteral, clang::CXXBoolLiteralExpr,
                clang::FloatingLiteral, clang::UnaryExprOrTypeTraitExpr, clang::DeclRefExpr>(E))
    return true;
  if (auto *Member = llvm::dyn_cast<clang::MemberExpr>(E))
    return readsOnly(Member->getBase());
  if (auto *Subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
    return readsOnly(Subscript->getBase()) && readsOnly(Subscript->getIdx());
  if (auto *Binary = llvm::dyn_cast<clang::BinaryOperator>(E))
    return !Binary->isAssignmentOp() && !Binary->isCompoundAssignmentOp() &&
           Binary->getOpcode() != clang::BO_Comma && readsOnly(Binary->getLHS()) &&
           readsOnly(Binary->getRHS());
  if (auto *Unary = llvm::dyn_cast<clang::UnaryOperator>(E))
    return !Unary->isIncrementDecrementOp() && readsOnly(Unary->getSubExpr());
  if (auto *Conditional = llvm::dyn_cast<clang::ConditionalOperator>(E))
    return readsOnly(Conditional->getCond()) && readsOnly(Conditional->getTrueExpr()) &&
           readsOnly(Conditional->getFalseExpr());
  return false;
}

// A declaration that can be evaluated again without changing anything.
bool readsOnly(const clang::DeclStmt &Declaration, const clang::ASTContext &Ctx, Locals &Before) {
  for (const clang::Decl *D : Declaration.decls()) {
    auto *Var = llvm::dyn_cast<clang::VarDecl>(D);
    if (!Var || !Var->isLocalVarDecl() || Var->isStaticLocal() || !Var->getInit() ||
        Var->getType()->isReferenceType() || !Var->getType()->isScalarType() ||
        !readsOnly(Var->getInit()))
      return false;
    Before[Var] = Var->getInit();
  }
  return true;
}

} // namespace

std::optional<LinearExit> findLinearExit(const clang::FunctionDecl &Kernel) {
  auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(Kernel.getBody());
  if (!Body)
    return std::nullopt;
  const clang::ASTContext &Ctx = Kernel.getASTContext();
  LinearExit Exit;
  Locals Before;
  for (auto It = Body->body_begin(); It != Body->body_end(); ++It) {
    const clang::Stmt *S = *It;
    if (llvm::isa<clang::NullStmt>(S))
      continue;
    if (auto *Declaration = llvm::dyn_cast<clang::DeclStmt>(S)) {
      if (!readsOnly(*Declaration, Ctx, Before))
        return std::nullopt;
      Exit.Leading.push_back(Declaration);
      continue;
    }
    auto *Guard = llvm::dyn_cast<clang::IfStmt>(S);
    if (!Guard || Guard->getInit() || Guard->getConditionVariable() || Guard->getElse() ||
        Guard->isConstexpr() || Guard->isConsteval())
      return std::nullopt;
    std::vector<const clang::Expr *> Operands;
    if (isPlainReturn(Guard->getThen())) {
      // `if (a || i >= n) return;`: the thread returns where any operand holds.
      operandsOf(Guard->getCond(), clang::BO_LOr, Operands);
      Exit.ExitsWhenFalse = false;
    } else if (std::next(It) == Body->body_end()) {
      // `if (a && i < n) { ... }` ends the body: it runs only where all hold.
      operandsOf(Guard->getCond(), clang::BO_LAnd, Operands);
      Exit.ExitsWhenFalse = true;
    } else {
      return std::nullopt;
    }
    for (const clang::Expr *Operand : Operands)
      if (monotoneComparison(Operand, !Exit.ExitsWhenFalse, Before, Ctx)) {
        Exit.Comparison = Operand;
        return Exit;
      }
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace launchopt

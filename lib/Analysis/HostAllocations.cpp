#include "HostAllocations.h"

#include "FunctionFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <numeric>

namespace launchopt {

namespace {

// The parent of S above parentheses and casts.
const clang::Stmt *parentAboveCasts(clang::ASTContext &Ctx, const clang::Stmt *S) {
  const clang::Stmt *P = parentOf(Ctx, S);
  while (P && (llvm::isa<clang::ParenExpr>(P) || llvm::isa<clang::CastExpr>(P)))
    P = parentOf(Ctx, P);
  return P;
}

// Whether E (an lvalue) is only read where it stands, or is the address
// that a cudaMalloc call fills.
bool readOrAllocated(clang::ASTContext &Ctx, const clang::Expr *E) {
  const clang::Stmt *P = parentOf(Ctx, E);
  while (const auto *Paren = llvm::dyn_cast_or_null<clang::ParenExpr>(P))
    P = parentOf(Ctx, Paren);
  if (const auto *Cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(P))
    return Cast->getCastKind() == clang::CK_LValueToRValue;
  const auto *Address = llvm::dyn_cast_or_null<clang::UnaryOperator>(P);
  if (!Address || Address->getOpcode() != clang::UO_AddrOf)
    return false;
  const auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(parentAboveCasts(Ctx, Address));
  if (!Call || Call->getNumArgs() < 1 || !Call->getDirectCallee() ||
      Call->getDirectCallee()->getName() != "cudaMalloc")
    return false;
  return Call->getArg(0)->IgnoreParenCasts() == Address;
}

// Whether every reference to V in F passes Use.
bool everyUse(const clang::FunctionDecl &F, const clang::VarDecl *V,
              llvm::function_ref<bool(clang::ASTContext &, const clang::DeclRefExpr *)> Use) {
  struct References : clang::RecursiveASTVisitor<References> {
    const clang::VarDecl *V;
    clang::ASTContext *Ctx;
    llvm::function_ref<bool(clang::ASTContext &, const clang::DeclRefExpr *)> Use;
    bool Clean = true;
    bool VisitDeclRefExpr(clang::DeclRefExpr *D) {
      if (D->getDecl() == V)
        Clean &= Use(*Ctx, D);
      return Clean;
    }
  } Visitor;
  Visitor.V = V;
  Visitor.Ctx = &F.getASTContext();
  Visitor.Use = Use;
  Visitor.TraverseStmt(F.getBody());
  return Visitor.Clean;
}

// Whether every use of V in F reads it (or, for an array, its elements) or
// gives cudaMalloc its address (its element's).
bool allocatedOnlyByCudaMalloc(const clang::FunctionDecl &F, const clang::VarDecl *V) {
  if (!V->getType()->isArrayType())
    return everyUse(F, V, readOrAllocated);
  return everyUse(F, V, [](clang::ASTContext &Ctx, const clang::DeclRefExpr *D) {
    const auto *Decay = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parentOf(Ctx, D));
    const auto *Element =
        Decay ? llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parentOf(Ctx, Decay)) : nullptr;
    return Decay && Decay->getCastKind() == clang::CK_ArrayToPointerDecay && Element &&
           Element->getBase()->IgnoreParenImpCasts() == D && readOrAllocated(Ctx, Element);
  });
}

// A local variable of F (not static, not a parameter).
bool isLocalOf(const clang::VarDecl *V, const clang::FunctionDecl &F) {
  return V && V->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(V) &&
         V->getParentFunctionOrMethod() == &F;
}

// sum of Terms[v] * v + Constant, over integer variables (or opaque
// subexpressions, keyed by their node).
struct Linear {
  std::map<const void *, long long> Terms;
  long long Constant = 0;
};

// Whether every use of V in F reads its value (its initializer aside).
bool onlyInitialized(const clang::FunctionDecl &F, const clang::VarDecl *V) {
  return everyUse(F, V, [](clang::ASTContext &Ctx, const clang::DeclRefExpr *D) {
    const auto *Cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parentOf(Ctx, D));
    return Cast && Cast->getCastKind() == clang::CK_LValueToRValue;
  });
}

std::optional<Linear> linearOf(const clang::FunctionDecl &F, const clang::Expr *E, int Depth = 0) {
  E = E->IgnoreParenImpCasts();
  Linear L;
  if (Depth > 8)
    return std::nullopt;
  if (const auto *Literal = llvm::dyn_cast<clang::IntegerLiteral>(E)) {
    L.Constant = (long long)Literal->getValue().getLimitedValue(1ull << 40);
    return L;
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!V || !V->getType()->isIntegerType())
      return std::nullopt;
    if (isLocalOf(V, F) && V->getInit() && onlyInitialized(F, V))
      return linearOf(F, V->getInit(), Depth + 1);
    L.Terms[V] = 1;
    return L;
  }
  if (const auto *Binary = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    std::optional<Linear> A = linearOf(F, Binary->getLHS(), Depth + 1);
    std::optional<Linear> B = linearOf(F, Binary->getRHS(), Depth + 1);
    if (A && B && (Binary->getOpcode() == clang::BO_Add || Binary->getOpcode() == clang::BO_Sub)) {
      long long Sign = Binary->getOpcode() == clang::BO_Add ? 1 : -1;
      for (const auto &[Atom, C] : B->Terms)
        A->Terms[Atom] += Sign * C;
      A->Constant += Sign * B->Constant;
      return A;
    }
    if (A && B && Binary->getOpcode() == clang::BO_Mul && (A->Terms.empty() || B->Terms.empty())) {
      const Linear &Factor = A->Terms.empty() ? *A : *B;
      Linear Product = A->Terms.empty() ? *B : *A;
      for (auto &[Atom, C] : Product.Terms)
        C *= Factor.Constant;
      Product.Constant *= Factor.Constant;
      return Product;
    }
  }
  // Anything else of integer type is an atom: equal only to itself.
  if (!E->getType()->isIntegerType())
    return std::nullopt;
  L.Terms[E] = 1;
  return L;
}

// Whether A - B is never 0 for integer values of its atoms.
bool neverEqual(const Linear &A, const Linear &B) {
  Linear D = A;
  for (const auto &[Atom, C] : B.Terms)
    D.Terms[Atom] -= C;
  D.Constant -= B.Constant;
  long long G = 0;
  for (const auto &[Atom, C] : D.Terms)
    G = std::gcd(G, C < 0 ? -C : C);
  if (G == 0)
    return D.Constant != 0;
  return D.Constant % G != 0;
}

// The allocation an argument names: a variable, or an array and an index.
struct Allocation {
  const clang::VarDecl *Variable = nullptr;
  const clang::Expr *Index = nullptr;
};

std::optional<Allocation> allocationOf(const clang::FunctionDecl &Host, const clang::Expr *Arg) {
  Arg = Arg->IgnoreParenImpCasts();
  Allocation A;
  if (const auto *Element = llvm::dyn_cast<clang::ArraySubscriptExpr>(Arg)) {
    const auto *Base =
        llvm::dyn_cast<clang::DeclRefExpr>(Element->getBase()->IgnoreParenImpCasts());
    A.Variable = Base ? llvm::dyn_cast<clang::VarDecl>(Base->getDecl()) : nullptr;
    A.Index = Element->getIdx();
    if (!A.Variable || !A.Variable->getType()->isConstantArrayType())
      return std::nullopt;
  } else if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Arg)) {
    A.Variable = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!A.Variable || !A.Variable->getType()->isPointerType())
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!isLocalOf(A.Variable, Host) || !allocatedOnlyByCudaMalloc(Host, A.Variable))
    return std::nullopt;
  return A;
}

bool distinct(const clang::FunctionDecl &Host, const Allocation &A, const Allocation &B) {
  if (A.Variable != B.Variable)
    return true;
  if (!A.Index || !B.Index)
    return false;
  std::optional<Linear> IA = linearOf(Host, A.Index), IB = linearOf(Host, B.Index);
  return IA && IB && neverEqual(*IA, *IB);
}

// Whether launch L, in Kernel itself, passes Kernel's parameter I, which
// Kernel never writes, as argument I.
bool passesOwnParameter(const LaunchSite &L, const clang::FunctionDecl &Kernel, unsigned I) {
  if (L.Parent->getCanonicalDecl() != Kernel.getCanonicalDecl() || I >= L.Parent->getNumParams())
    return false;
  const clang::ParmVarDecl *P = L.Parent->getParamDecl(I);
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(L.Arguments[I]->IgnoreParenImpCasts());
  return Ref && Ref->getDecl() == P && onlyInitialized(*L.Parent, P);
}

} // namespace

std::optional<std::string> distinctHostAllocations(const LaunchAnalysis &Launches,
                                                   const clang::FunctionDecl &Kernel, unsigned A,
                                                   unsigned B) {
  if (Launches.LaunchedFromOtherFiles.count(&Kernel))
    return std::nullopt;
  unsigned Seen = 0;
  for (const LaunchSite &L : Launches.Sites) {
    if (!L.Child || L.Child->getCanonicalDecl() != Kernel.getCanonicalDecl())
      continue;
    if (!L.Parent || !L.Parent->getBody() || L.Arguments.size() <= std::max(A, B))
      return std::nullopt;
    // A kernel that launches itself with both parameters as it got them
    // keeps what its host launches gave them.
    if (L.DeviceSide && passesOwnParameter(L, Kernel, A) && passesOwnParameter(L, Kernel, B))
      continue;
    if (L.DeviceSide)
      return std::nullopt;
    std::optional<Allocation> First = allocationOf(*L.Parent, L.Arguments[A]);
    std::optional<Allocation> Second = allocationOf(*L.Parent, L.Arguments[B]);
    if (!First || !Second || !distinct(*L.Parent, *First, *Second))
      return std::nullopt;
    ++Seen;
  }
  if (Seen == 0)
    return std::nullopt;
  return std::string("every host launch of '") + Kernel.getNameAsString() + "' (" +
         std::to_string(Seen) + ") passes cudaMalloc results that differ";
}

} // namespace launchopt

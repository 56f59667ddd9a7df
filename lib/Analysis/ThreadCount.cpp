#include "ThreadCount.h"

#include "ConstantOperand.h"
#include "VariableWrites.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace launchopt {

namespace {

const clang::Expr *strip(const clang::Expr *E) {
  while (true) {
    const clang::Expr *Next = E->IgnoreParenImpCasts();
    if (auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(Next))
      Next = Cast->getSubExpr();
    if (auto *Bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(Next))
      Next = Bind->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
}

bool sameExpr(clang::ASTContext &Ctx, const clang::Expr *A, const clang::Expr *B) {
  llvm::FoldingSetNodeID IA, IB;
  strip(A)->Profile(IA, Ctx, /*Canonical=*/true);
  strip(B)->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

// "Constant" in the sense of §III-D: literals, constant expressions, the
// divisor itself, and sums of those (b - 1).
bool isConstantLike(clang::ASTContext &Ctx, const clang::Expr *E, const clang::Expr *Divisor) {
  E = strip(E);
  if (!E->isValueDependent() && E->isIntegerConstantExpr(Ctx))
    return true;
  if (Divisor && sameExpr(Ctx, E, Divisor))
    return true;
  if (auto *B = llvm::dyn_cast<clang::BinaryOperator>(E))
    if (B->isAdditiveOp())
      return isConstantLike(Ctx, B->getLHS(), Divisor) && isConstantLike(Ctx, B->getRHS(), Divisor);
  return false;
}

// Removes added or subtracted constants around N: (N + b - 1) -> N.
const clang::Expr *stripConstantTerms(clang::ASTContext &Ctx, const clang::Expr *E,
                                      const clang::Expr *Divisor) {
  const clang::Expr *S = strip(E);
  if (auto *B = llvm::dyn_cast<clang::BinaryOperator>(S)) {
    if (B->isAdditiveOp() && isConstantLike(Ctx, B->getRHS(), Divisor) &&
        !isConstantLike(Ctx, B->getLHS(), Divisor))
      return stripConstantTerms(Ctx, B->getLHS(), Divisor);
    if (B->getOpcode() == clang::BO_Add && isConstantLike(Ctx, B->getLHS(), Divisor) &&
        !isConstantLike(Ctx, B->getRHS(), Divisor))
      return stripConstantTerms(Ctx, B->getRHS(), Divisor);
  }
  return S;
}

bool isCeilCall(const clang::Expr *E, const clang::CallExpr *&Call) {
  Call = llvm::dyn_cast<clang::CallExpr>(E);
  if (!Call || Call->getNumArgs() != 1)
    return false;
  const clang::FunctionDecl *F = Call->getDirectCallee();
  if (!F)
    return false;
  llvm::StringRef Name = F->getName();
  return Name == "ceil" || Name == "ceilf" || Name == "__builtin_ceil" || Name == "__builtin_ceilf";
}

// N may be evaluated again at the launch when doing so cannot change
// anything: no side effects, and every variable it reads keeps its value.
class StableOperandCheck : public clang::RecursiveASTVisitor<StableOperandCheck> {
public:
  explicit StableOperandCheck(const clang::FunctionDecl *F) : F(F) {}
  bool Stable = true;
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (Var && !Var->getType().isConstQualified() && isWrittenIn(F, Var))
      Stable = false;
    return true;
  }

private:
  const clang::FunctionDecl *F;
};

// A local variable, never written after its initialisation: its initialiser
// can stand for it.
const clang::Expr *stableInitializer(const clang::Expr *E, const clang::FunctionDecl *F) {
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(strip(E));
  if (!Ref)
    return nullptr;
  auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
  if (!Var || !Var->isLocalVarDecl() || !Var->hasInit() || isWrittenIn(F, Var))
    return nullptr;
  return Var->getInit();
}

class Recovery {
public:
  Recovery(clang::ASTContext &Ctx, const LaunchSite &Site) : Ctx(Ctx), Site(Site) {}

  // One grid dimension expression -> its N, following intermediate variables.
  DimensionThreads fromDimension(const clang::Expr *E, bool InLaunch, int Hops = 0) {
    DimensionThreads D;
    if (!E || Hops > 8)
      return D;
    const clang::Expr *S = strip(E);
    if (const clang::Expr *Init = stableInitializer(S, Site.Parent))
      return fromDimension(Init, false, Hops + 1);
    NumeratorOutsideLaunch = false;
    findCeilDivision(S, D);
    if (!D.Numerator)
      return D;
    InLaunch = InLaunch && !NumeratorOutsideLaunch;
    D.InLaunchExpression = InLaunch;
    if (!InLaunch && !isStable(D.Numerator))
      D = DimensionThreads();
    return D;
  }

  // The grid as dim3 components, following a dim3 variable to its initialiser.
  std::array<const clang::Expr *, 3> gridComponents(bool &InLaunch) {
    std::array<const clang::Expr *, 3> Parts = {nullptr, nullptr, nullptr};
    InLaunch = true;
    const clang::Expr *G = Site.Grid;
    if (!G)
      return Parts;
    if (isDim3(G)) {
      if (const clang::Expr *Init = stableInitializer(G, Site.Parent)) {
        G = Init;
        InLaunch = false;
      }
      const clang::Expr *S = G->IgnoreImplicit();
      if (auto *Cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(S))
        S = Cast->getSubExpr()->IgnoreImplicit();
      if (auto *Construct = llvm::dyn_cast<clang::CXXConstructExpr>(S)) {
        for (unsigned I = 0; I < 3 && I < Construct->getNumArgs(); ++I)
          if (!llvm::isa<clang::CXXDefaultArgExpr>(Construct->getArg(I)))
            Parts[I] = Construct->getArg(I);
        if (Construct->getNumArgs() == 1 && isDim3(Construct->getArg(0)))
          Parts = {nullptr, nullptr, nullptr}; // a dim3 copy: nothing to see
      } else if (auto *Init = llvm::dyn_cast<clang::InitListExpr>(S)) {
        for (unsigned I = 0; I < 3 && I < Init->getNumInits(); ++I)
          Parts[I] = Init->getInit(I);
      }
      return Parts;
    }
    Parts[0] = G;
    return Parts;
  }

private:
  static bool isDim3(const clang::Expr *E) {
    const clang::Type *T = E->getType().getCanonicalType().getTypePtrOrNull();
    if (!T)
      return false;
    const clang::CXXRecordDecl *R = T->getAsCXXRecordDecl();
    return R && R->getName() == "dim3";
  }

  bool isStable(const clang::Expr *N) {
    if (N->HasSideEffects(Ctx))
      return false;
    StableOperandCheck Check(Site.Parent);
    Check.TraverseStmt(const_cast<clang::Expr *>(N));
    return Check.Stable;
  }

  void findCeilDivision(const clang::Expr *S, DimensionThreads &D) {
    const clang::CallExpr *Ceil = nullptr;
    if (isCeilCall(S, Ceil)) {
      // Fig. 4 (d), (e): ceil((float)N / b), ceil(N / (float)b)
      if (auto *Div = llvm::dyn_cast<clang::BinaryOperator>(strip(Ceil->getArg(0))))
        if (Div->getOpcode() == clang::BO_Div) {
          D.Numerator = strip(Div->getLHS());
          D.Pattern = "ceil(N/b)";
          Divisor = strip(Div->getRHS());
        }
      return;
    }
    auto *B = llvm::dyn_cast<clang::BinaryOperator>(S);
    if (auto *Cond = llvm::dyn_cast<clang::ConditionalOperator>(S)) {
      // Fig. 4 (c) as parsed: (N/b + (N%b == 0)) ? 0 : 1
      findCeilDivision(strip(Cond->getCond()), D);
      if (D.Numerator)
        D.Pattern = "(" + D.Pattern + ") ? c : c";
      return;
    }
    if (!B)
      return;
    if (B->getOpcode() == clang::BO_Div) {
      // Fig. 4 (b): (N + b - 1) / b
      D.Numerator = stripConstantTerms(Ctx, B->getLHS(), B->getRHS());
      D.Pattern = D.Numerator == strip(B->getLHS()) ? "N/b" : "(N + c)/b";
      Divisor = strip(B->getRHS());
      // §III-D: the sum may itself be stored in a variable first
      // (`int padded = N + b - 1; padded / b`).
      while (const clang::Expr *Init = stableInitializer(D.Numerator, Site.Parent)) {
        const clang::Expr *Inner = stripConstantTerms(Ctx, Init, B->getRHS());
        if (Inner == strip(Init))
          break;
        D.Numerator = Inner;
        D.Pattern = "(N + c)/b";
        NumeratorOutsideLaunch = true;
      }
      return;
    }
    if (B->isAdditiveOp()) {
      // Fig. 4 (a), (c): (N - 1)/b + 1, N/b + (N%b != 0)
      findCeilDivision(strip(B->getLHS()), D);
      if (!D.Numerator)
        findCeilDivision(strip(B->getRHS()), D);
      if (D.Numerator)
        D.Pattern += " + c";
    }
  }

  clang::ASTContext &Ctx;
  const LaunchSite &Site;
  // Whether findCeilDivision followed N out of the launch into a variable.
  bool NumeratorOutsideLaunch = false;

public:
  // The b of the last ceil(N / b) found.
  const clang::Expr *Divisor = nullptr;
};

} // namespace

ThreadCount recoverThreadCount(clang::ASTContext &Ctx, const LaunchSite &Site) {
  ThreadCount Count;
  Recovery R(Ctx, Site);
  bool InLaunch = true;
  std::array<const clang::Expr *, 3> Parts = R.gridComponents(InLaunch);
  std::optional<std::array<uint64_t, 3>> Block =
      Site.Block ? constantShape(Ctx, Site.Block) : std::nullopt;
  for (unsigned I = 0; I < 3; ++I) {
    if (!Parts[I])
      continue;
    R.Divisor = nullptr;
    Count.Dimensions[I] = R.fromDimension(Parts[I], InLaunch);
    // A tile of several elements per thread (`(n + 511) / 512` blocks of
    // 128 threads): N counts elements, not threads. The divisor may be the
    // block's extent along this axis or its whole size (a grid along y of
    // blocks along x).
    std::optional<uint64_t> Divisor = R.Divisor ? constantInteger(Ctx, R.Divisor) : std::nullopt;
    if (Block && Divisor && *Divisor != (*Block)[I] &&
        *Divisor != (*Block)[0] * (*Block)[1] * (*Block)[2])
      Count.Dimensions[I] = DimensionThreads();
  }
  return Count;
}

} // namespace launchopt

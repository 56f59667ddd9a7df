#include "ParameterAccess.h"

#include "TileCache.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <functional>
#include <set>

namespace launchopt {

using namespace clang;

std::string indexText(const IndexPolynomial &P) {
  std::string S;
  for (const auto &[Monomial, Coefficient] : P) {
    if (!Coefficient)
      continue;
    S += Coefficient < 0 ? "-" : "+";
    long long Magnitude = Coefficient < 0 ? -Coefficient : Coefficient;
    if (Monomial.empty() || Magnitude != 1)
      S += std::to_string(Magnitude) + (Monomial.empty() ? "" : "*");
    for (size_t I = 0; I < Monomial.size(); ++I)
      S += (I ? "*" : "") + Monomial[I];
  }
  return S.empty() ? "0" : S;
}

namespace {

IndexPolynomial atom(std::string Name) { return {{{std::move(Name)}, 1}}; }

IndexPolynomial add(IndexPolynomial A, const IndexPolynomial &B, long long Sign) {
  for (const auto &[M, C] : B)
    if ((A[M] += Sign * C) == 0)
      A.erase(M);
  return A;
}

IndexPolynomial multiply(const IndexPolynomial &A, const IndexPolynomial &B) {
  IndexPolynomial R;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      IndexMonomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      if ((R[M] += CA * CB) == 0)
        R.erase(M);
    }
  return R;
}

std::string printed(const Expr *E, const ASTContext &Ctx) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return S;
}

// Locals assigned after their declaration (loop counters, a site advanced
// along a column): they do not stand for their initialisers.
class ModifiedLocals : public RecursiveASTVisitor<ModifiedLocals> {
public:
  std::set<const VarDecl *> Locals;
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      note(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      note(U->getSubExpr());
    return true;
  }

private:
  void note(const Expr *E) {
    if (const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
        Locals.insert(V);
  }
};

using VarSet = std::set<const VarDecl *>;

IndexPolynomial polynomial(const Expr *E, const ASTContext &Ctx, const VarSet &Modified,
                           unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return polynomial(Cast->getSubExpr(), Ctx, Modified, Depth);
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return {{{}, static_cast<long long>(I->getValue().getSExtValue())}};
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl())) {
      // A local initialised once stands for its initialiser, so that
      // `A[c + 1]` and `A[j * nx + i + 1]` compare equal.
      if (!isa<ParmVarDecl>(V) && V->hasInit() && V->isLocalVarDecl() && Depth < 16 &&
          !Modified.count(V))
        return polynomial(V->getInit(), Ctx, Modified, Depth + 1);
      return atom(V->getNameAsString());
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Minus)
      return add({}, polynomial(U->getSubExpr(), Ctx, Modified, Depth), -1);
    if (U->getOpcode() == UO_Plus)
      return polynomial(U->getSubExpr(), Ctx, Modified, Depth);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    switch (B->getOpcode()) {
    case BO_Add:
      return add(polynomial(B->getLHS(), Ctx, Modified, Depth),
                 polynomial(B->getRHS(), Ctx, Modified, Depth), 1);
    case BO_Sub:
      return add(polynomial(B->getLHS(), Ctx, Modified, Depth),
                 polynomial(B->getRHS(), Ctx, Modified, Depth), -1);
    case BO_Mul:
      return multiply(polynomial(B->getLHS(), Ctx, Modified, Depth),
                      polynomial(B->getRHS(), Ctx, Modified, Depth));
    default:
      break;
    }
  }
  return atom("(" + printed(E, Ctx) + ")");
}

const ParmVarDecl *subscriptedParameter(const ArraySubscriptExpr *S) {
  if (const auto *R = dyn_cast<DeclRefExpr>(S->getBase()->IgnoreParenImpCasts()))
    return dyn_cast<ParmVarDecl>(R->getDecl());
  return nullptr;
}

// An index that reads memory: a subscript or a dereference inside it.
bool loadsIndex(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ArraySubscriptExpr>(S))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
    return true;
  for (const Stmt *Child : S->children())
    if (loadsIndex(Child))
      return true;
  return false;
}

// An offset that is the same for every thread and fixed before the kernel
// runs: its factors are scalar parameters and the launch's shape. Anything
// else (a loop counter, a thread index left over, an expression the
// polynomial cannot see through) reads at an offset only known at run time.
bool isFixedOffset(const IndexPolynomial &Offset, const std::set<std::string> &Scalars) {
  static const std::set<std::string> Shape = {"(blockDim.x)", "(blockDim.y)", "(blockDim.z)",
                                              "(gridDim.x)",  "(gridDim.y)",  "(gridDim.z)"};
  for (const auto &[Monomial, Coefficient] : Offset)
    for (const std::string &Factor : Monomial)
      if (!Scalars.count(Factor) && !Shape.count(Factor))
        return false;
  return true;
}

// Whether statement S of Body runs on every thread that runs the kernel:
// only blocks enclose it, and no return or goto comes before it.
bool runsOnEveryThread(const CompoundStmt *Body, const Stmt *S, const SourceManager &SM) {
  std::function<bool(const Stmt *)> Exits = [&](const Stmt *T) {
    if (!T)
      return false;
    if ((isa<ReturnStmt>(T) || isa<GotoStmt>(T)) &&
        SM.isBeforeInTranslationUnit(T->getBeginLoc(), S->getBeginLoc()))
      return true;
    return std::any_of(T->child_begin(), T->child_end(), Exits);
  };
  std::function<bool(const CompoundStmt *)> Encloses = [&](const CompoundStmt *C) {
    for (const Stmt *Child : C->body())
      if (Child == S)
        return true;
      else if (const auto *Inner = dyn_cast<CompoundStmt>(Child); Inner && Encloses(Inner))
        return true;
    return false;
  };
  return Body && Encloses(Body) && !Exits(Body);
}

struct Subscript {
  const ArraySubscriptExpr *Expr;
  const ParmVarDecl *Param;
  bool Read = true, Write = false;
};

class AccessCollector : public RecursiveASTVisitor<AccessCollector> {
public:
  std::vector<Subscript> Subscripts;
  std::set<const ArraySubscriptExpr *> Stored, Updated;
  std::map<const ArraySubscriptExpr *, const BinaryOperator *> Assignments;
  std::set<const Stmt *> Statements; // expressions whose value is not used
  std::set<const ParmVarDecl *> Escaping;
  std::set<const ParmVarDecl *> Subscripted;

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *S) {
    if (const ParmVarDecl *P = subscriptedParameter(S)) {
      Subscripts.push_back({S, P});
      Subscripted.insert(P);
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (auto *S = dyn_cast<ArraySubscriptExpr>(B->getLHS()->IgnoreParens())) {
      if (B->getOpcode() == BO_Assign) {
        Stored.insert(S);
        Assignments[S] = B;
      } else if (B->isCompoundAssignmentOp())
        Updated.insert(S);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (auto *S = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
      if (U->isIncrementDecrementOp())
        Updated.insert(S);
    return true;
  }
  // A pointer parameter used other than as `p[...]` (passed on, offset,
  // dereferenced) may be read or written anywhere.
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (const auto *P = dyn_cast<ParmVarDecl>(R->getDecl()))
      if (P->getType()->isPointerType())
        Uses.push_back(R);
    return true;
  }
  std::vector<const DeclRefExpr *> Uses;

  bool VisitCompoundStmt(CompoundStmt *C) {
    for (Stmt *S : C->body())
      Statements.insert(S);
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    Statements.insert(S->getThen());
    Statements.insert(S->getElse());
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    Statements.insert(S->getBody());
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) {
    Statements.insert(S->getBody());
    return true;
  }
  bool VisitDoStmt(DoStmt *S) {
    Statements.insert(S->getBody());
    return true;
  }
};

} // namespace

KernelIndices::KernelIndices(const FunctionDecl &Kernel) : Ctx(Kernel.getASTContext()) {
  ModifiedLocals Walk;
  if (Kernel.hasBody())
    Walk.TraverseStmt(Kernel.getBody());
  Modified = std::move(Walk.Locals);
}

IndexPolynomial KernelIndices::operator()(const Expr *E) const {
  return polynomial(E, Ctx, Modified);
}

KernelAccess analyzeParameterAccess(const FunctionDecl &Kernel) {
  KernelAccess Result;
  const ASTContext &Ctx = Kernel.getASTContext();
  AccessCollector C;
  ModifiedLocals Modified;
  if (Kernel.hasBody()) {
    C.TraverseStmt(Kernel.getBody());
    Modified.TraverseStmt(Kernel.getBody());
  }
  std::set<std::string> Scalars;
  for (const ParmVarDecl *P : Kernel.parameters())
    if (!P->getType()->isPointerType() && !P->getType()->isReferenceType())
      Scalars.insert(P->getNameAsString());
  std::set<const DeclRefExpr *> AsBase;
  for (Subscript &S : C.Subscripts) {
    AsBase.insert(dyn_cast<DeclRefExpr>(S.Expr->getBase()->IgnoreParenImpCasts()));
    S.Write = C.Stored.count(S.Expr) || C.Updated.count(S.Expr);
    S.Read = !C.Stored.count(S.Expr);
  }
  for (const DeclRefExpr *R : C.Uses)
    if (!AsBase.count(R) && Result.Irregular.empty())
      Result.Irregular = "pointer parameter '" + R->getDecl()->getNameAsString() +
                         "' is used other than by subscript";

  // The thread's own site: where it writes (the paper's kernels write one
  // stencil site per thread).
  std::optional<IndexPolynomial> Site;
  for (const Subscript &S : C.Subscripts)
    if (S.Write) {
      IndexPolynomial P = polynomial(S.Expr->getIdx(), Ctx, Modified.Locals);
      if (!Site)
        Site = P;
      else if (P != *Site && Result.Irregular.empty())
        Result.Irregular =
            "writes at more than one index (" + indexText(*Site) + " and " + indexText(P) + ")";
    }
  for (const Subscript &S : C.Subscripts)
    if (!S.Write && !Site)
      Site = polynomial(S.Expr->getIdx(), Ctx, Modified.Locals);
  if (Site)
    Result.Site = *Site;

  std::optional<TileCaches> Caches = findTileCaches(Kernel);
  const std::vector<TileCache> NoCaches;
  const std::vector<TileCacheRead> NoReads;
  for (unsigned I = 0; I < Kernel.getNumParams(); ++I) {
    const ParmVarDecl *P = Kernel.getParamDecl(I);
    if (!P->getType()->isPointerType())
      continue;
    ParameterAccess A;
    A.Index = I;
    A.Name = P->getNameAsString();
    QualType Element = P->getType()->getPointeeType();
    A.ElementBytes =
        Element->isIncompleteType() ? 1 : Ctx.getTypeSizeInChars(Element).getQuantity();
    std::set<std::string> Offsets;
    auto Record = [&](const SubscriptAccess &Access, bool IndexLoads) {
      A.Subscripts.push_back(Access);
      A.Writes |= Access.Writes;
      if (!Access.Reads)
        return;
      A.Reads = true;
      A.Indirect |= IndexLoads || !isFixedOffset(Access.Offset, Scalars);
      Offsets.insert(indexText(Access.Offset));
      for (const auto &[M, Coefficient] : Access.Offset)
        A.HaloRadius = std::max<unsigned>(A.HaloRadius, std::abs(Coefficient));
    };
    for (const Subscript &S : C.Subscripts) {
      if (S.Param != P)
        continue;
      SubscriptAccess Access;
      Access.Expr = S.Expr;
      Access.Offset = add(polynomial(S.Expr->getIdx(), Ctx, Modified.Locals), *Site, -1);
      Access.Reads = S.Read;
      Access.Writes = S.Write;
      auto Store = C.Assignments.find(S.Expr);
      if (Store != C.Assignments.end() && C.Statements.count(Store->second))
        Access.PlainStore = Store->second;
      A.WritesEverySite |= Access.PlainStore && Access.Offset.empty() &&
                           runsOnEveryThread(dyn_cast_or_null<CompoundStmt>(Kernel.getBody()),
                                             Access.PlainStore, Ctx.getSourceManager());
      Record(Access, loadsIndex(S.Expr->getIdx()));
    }
    // A tile that caches the parameter reads it at the cached elements.
    for (const TileCache &T : Caches ? Caches->Caches : NoCaches)
      for (const TileCacheRead &R : T.Source == P ? T.Reads : NoReads) {
        SubscriptAccess Access;
        Access.Expr = R.Expr;
        Access.Offset =
            add(add(polynomial(T.Load->getIdx(), Ctx, Modified.Locals), *Site, -1), R.Delta, 1);
        Access.Reads = true;
        Access.CachedRead = R.GlobalRead;
        Record(Access, loadsIndex(T.Load->getIdx()));
      }
    A.ReadOffsets.assign(Offsets.begin(), Offsets.end());
    Result.Parameters.push_back(A);
  }
  return Result;
}

} // namespace launchopt

#include "TileCache.h"

#include "IndexPolynomial.h"
#include "KernelFeatures.h"
#include "SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <algorithm>
#include <set>

namespace launchopt {

using namespace clang;

namespace {

const std::string ThreadX = "(threadIdx.x)", ThreadY = "(threadIdx.y)", ThreadZ = "(threadIdx.z)";

bool isBuiltinAtom(const std::string &Atom) {
  for (const char *Var : {"threadIdx", "blockIdx", "blockDim", "gridDim"})
    for (const char *Axis : {".x)", ".y)", ".z)"})
      if (Atom == "(" + std::string(Var) + Axis)
        return true;
  return false;
}

IndexPolynomial single(const std::string &Atom) { return {{{Atom}, 1}}; }

// `+ cols`, `- 2 * cols`, `+ 1`: a delta as code, built-in indices as ints
// so that a negative term cannot wrap around in unsigned arithmetic.
std::string deltaText(const IndexPolynomial &Delta) {
  std::string S;
  for (const auto &[M, C] : Delta) {
    S += C < 0 ? " - " : " + ";
    unsigned long long Magnitude = C < 0 ? -(unsigned long long)C : C;
    if (M.empty()) {
      S += std::to_string(Magnitude);
      continue;
    }
    if (Magnitude != 1)
      S += std::to_string(Magnitude) + " * ";
    for (size_t I = 0; I < M.size(); ++I)
      S += (I ? " * " : "") +
           (isBuiltinAtom(M[I]) ? "(int)" + M[I].substr(1, M[I].size() - 2) : M[I]);
  }
  return S;
}

// Everything the body does with shared variables, barriers and calls.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  std::set<const VarDecl *> Shared;
  std::vector<const ArraySubscriptExpr *> Subscripts;
  std::vector<const DeclRefExpr *> References;
  std::vector<const CallExpr *> Barriers;
  std::vector<const FunctionDecl *> Callees;

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>())
      Shared.insert(V);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *S) {
    Subscripts.push_back(S);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    References.push_back(R);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee()) {
      if (F->getName() == "__syncthreads")
        Barriers.push_back(C);
      else if (F->hasBody())
        Callees.push_back(F);
    }
    return true;
  }
};

bool containsReturn(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (containsReturn(Child))
      return true;
  return false;
}

// The variable a chain of subscripts starts from, and its indices in order:
// tile[a][b] -> tile, {a, b}.
const VarDecl *subscriptRoot(const ArraySubscriptExpr *S, std::vector<const Expr *> &Indices) {
  Indices.clear();
  const Expr *E = S;
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts())) {
    Indices.insert(Indices.begin(), A->getIdx());
    E = A->getBase();
  }
  const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
}

// The parent of S with parentheses and qualification conversions skipped
// (`c ? tile[i] : in[j]` makes the tile's float a const float).
const Stmt *parentOf(const ParentMap &PM, const Stmt *S) {
  const Stmt *P = PM.getParent(S);
  while (P && (isa<ParenExpr>(P) ||
               (isa<ImplicitCastExpr>(P) && cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp)))
    P = PM.getParent(P);
  return P;
}

// Whether the value of an lvalue is only loaded, through conditional
// operators that choose it (`ty > 0 ? tile[ty - 1][tx] : c`).
bool isRead(const ParentMap &PM, const Expr *E) {
  const Stmt *P = parentOf(PM, E);
  while (const auto *C = dyn_cast_or_null<ConditionalOperator>(P)) {
    if (C->getCond()->IgnoreParenImpCasts() == E)
      return false;
    E = C;
    P = parentOf(PM, C);
  }
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

class TileCacheFinder {
public:
  TileCacheFinder(const FunctionDecl &Kernel, const CompoundStmt &Body)
      : Kernel(Kernel), Ctx(Kernel.getASTContext()), PM(const_cast<CompoundStmt *>(&Body)),
        Indices(Kernel) {
    Scan.TraverseStmt(const_cast<CompoundStmt *>(&Body));
    Top.assign(Body.body_begin(), Body.body_end());
  }

  std::optional<TileCaches> find() {
    if (Scan.Shared.empty() || Scan.Barriers.size() != 1)
      return std::nullopt;
    for (const FunctionDecl *F : Scan.Callees) {
      KernelFeatures Features = computeKernelFeatures(*F);
      if (!Features.Barriers.empty() || Features.UsesSharedMemory)
        return std::nullopt;
    }
    TileCaches Out;
    Out.Barrier = Scan.Barriers.front();
    BarrierAt = position(Out.Barrier);
    if (BarrierAt == Top.size())
      return std::nullopt;
    for (unsigned I = 0; I < BarrierAt; ++I) {
      if (containsReturn(Top[I]))
        return std::nullopt;
      if (const auto *D = dyn_cast<DeclStmt>(Top[I]))
        for (const Decl *Each : D->decls())
          if (const auto *V = dyn_cast<VarDecl>(Each))
            TopLocals.insert(V);
    }
    for (const VarDecl *Tile : Scan.Shared) {
      std::optional<TileCache> C = cache(Tile, Out);
      if (!C)
        return std::nullopt;
      Out.Caches.push_back(std::move(*C));
    }
    return Out;
  }

private:
  const FunctionDecl &Kernel;
  const ASTContext &Ctx;
  ParentMap PM;
  KernelIndices Indices;
  BodyScan Scan;
  std::vector<const Stmt *> Top;
  unsigned BarrierAt = 0;
  std::set<const VarDecl *> TopLocals; // declared by statements before the barrier

  unsigned position(const Stmt *S) const {
    return std::find(Top.begin(), Top.end(), S) - Top.begin();
  }

  bool afterBarrier(const Stmt *S) const {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(Top[BarrierAt]->getEndLoc(),
                                                            S->getBeginLoc());
  }

  // Whether a parameter is only read, through subscripts.
  bool readOnly(const ParmVarDecl *P) const {
    for (const DeclRefExpr *R : Scan.References) {
      if (R->getDecl() != P)
        continue;
      const auto *S = dyn_cast_or_null<ArraySubscriptExpr>(
          PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(R)));
      if (!S || S->getBase()->IgnoreParenImpCasts() != R || !isRead(PM, S))
        return false;
    }
    return true;
  }

  // Whether the stored element's index can be written again at a read:
  // every name in it keeps its value and is in scope after the barrier.
  bool reusable(const Expr *Index) const {
    for (const DeclRefExpr *R : Scan.References) {
      if (!Index->getSourceRange().fullyContains(R->getSourceRange()))
        continue;
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      if (!V)
        continue;
      if (Indices.modified(V) || (!isa<ParmVarDecl>(V) && !TopLocals.count(V)))
        return false;
    }
    return true;
  }

  // A delta written with the kernel's unmodified parameters and built-in
  // indices only, which mean the same wherever it is read.
  bool writable(const IndexPolynomial &Delta) const {
    std::set<std::string> Params;
    for (const ParmVarDecl *P : Kernel.parameters())
      if (!Indices.modified(P))
        Params.insert(P->getNameAsString());
    for (const auto &[M, C] : Delta)
      for (const std::string &Atom : M)
        if (!isBuiltinAtom(Atom) && !Params.count(Atom))
          return false;
    return true;
  }

  std::optional<TileCache> cache(const VarDecl *Tile, TileCaches &Out) {
    TileCache C;
    C.Tile = Tile;
    QualType T = Tile->getType();
    std::vector<unsigned> Sizes;
    while (const auto *A = Ctx.getAsConstantArrayType(T)) {
      Sizes.push_back(A->getSize().getZExtValue());
      T = A->getElementType();
    }
    unsigned Dims = Sizes.size();
    if (Dims < 1 || Dims > 2 || !T->isScalarType() || Tile->hasExternalStorage())
      return std::nullopt;
    C.Extent[0] = Sizes.back();
    C.Extent[1] = Dims == 2 ? Sizes.front() : 1;
    for (unsigned I = 0; I < BarrierAt; ++I)
      if (const auto *D = dyn_cast<DeclStmt>(Top[I]);
          D && D->isSingleDecl() && D->getSingleDecl() == Tile)
        Out.Declarations.push_back(D);
    if (Out.Declarations.empty() || Out.Declarations.back()->getSingleDecl() != Tile)
      return std::nullopt;

    unsigned FullSubscripts = 0, References = 0;
    for (const DeclRefExpr *R : Scan.References)
      References += R->getDecl() == Tile;
    std::vector<const Expr *> Index;
    for (const ArraySubscriptExpr *S : Scan.Subscripts) {
      if (subscriptRoot(S, Index) != Tile || Index.size() != Dims)
        continue;
      ++FullSubscripts;
      const auto *Assign = dyn_cast_or_null<BinaryOperator>(parentOf(PM, S));
      if (Assign && Assign->getOpcode() == BO_Assign && Assign->getLHS()->IgnoreParens() == S) {
        if (C.Store || position(Assign) >= BarrierAt)
          return std::nullopt;
        C.Store = Assign;
        C.Load = dyn_cast<ArraySubscriptExpr>(Assign->getRHS()->IgnoreParenImpCasts());
        if (!C.Load)
          return std::nullopt;
        const auto *Base = dyn_cast<DeclRefExpr>(C.Load->getBase()->IgnoreParenImpCasts());
        C.Source = Base ? dyn_cast<ParmVarDecl>(Base->getDecl()) : nullptr;
        if (!C.Source || Indices(Index.back()) != single(ThreadX) ||
            (Dims == 2 && Indices(Index.front()) != single(ThreadY)))
          return std::nullopt;
        continue;
      }
      if (!isRead(PM, S) || !afterBarrier(S))
        return std::nullopt;
      TileCacheRead Read;
      Read.Expr = S;
      C.Reads.push_back(Read);
    }
    // Every mention of the tile is a whole subscript (no `tile[i]` row, no
    // pointer to it), and the array it caches is never written.
    if (!C.Store || FullSubscripts != References || !readOnly(C.Source) ||
        !reusable(C.Load->getIdx()))
      return std::nullopt;

    // What the stored index advances by per thread along x and y.
    IndexPolynomial PitchX, PitchY;
    for (const auto &[M, Coefficient] : Indices(C.Load->getIdx())) {
      unsigned X = std::count(M.begin(), M.end(), ThreadX);
      unsigned Y = std::count(M.begin(), M.end(), ThreadY);
      if (std::count(M.begin(), M.end(), ThreadZ) || X + Y > 1)
        return std::nullopt;
      IndexMonomial Rest = M;
      Rest.erase(std::remove_if(Rest.begin(), Rest.end(),
                                [](const std::string &A) { return A == ThreadX || A == ThreadY; }),
                 Rest.end());
      if (X)
        PitchX[Rest] += Coefficient;
      if (Y)
        PitchY[Rest] += Coefficient;
    }
    if (PitchX.empty() || (Dims == 2 && PitchY.empty()))
      return std::nullopt;

    std::string Index0 = readableText(Ctx, C.Load->getIdx()->getSourceRange());
    if (Index0.empty())
      return std::nullopt;
    if (!isa<DeclRefExpr, IntegerLiteral>(C.Load->getIdx()->IgnoreParenImpCasts()))
      Index0 = "(" + Index0 + ")";
    for (TileCacheRead &Read : C.Reads) {
      std::vector<const Expr *> ReadIndex;
      subscriptRoot(Read.Expr, ReadIndex);
      IndexPolynomial Delta = times(PitchX, plus(Indices(ReadIndex.back()), single(ThreadX), -1));
      if (Dims == 2)
        Delta = plus(Delta, times(PitchY, plus(Indices(ReadIndex.front()), single(ThreadY), -1)));
      if (!writable(Delta))
        return std::nullopt;
      Read.Delta = Delta;
      Read.GlobalRead = C.Source->getNameAsString() + "[" + Index0 + deltaText(Delta) + "]";
    }
    return C;
  }
};

} // namespace

std::optional<TileCaches> findTileCaches(const FunctionDecl &Kernel) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return std::nullopt;
  return TileCacheFinder(Kernel, *Body).find();
}

bool fillsTiles(const TileCaches &T, const unsigned Block[3]) {
  for (const TileCache &C : T.Caches)
    if (C.Extent[0] != Block[0] || C.Extent[1] != Block[1] || Block[2] != 1)
      return false;
  return true;
}

} // namespace launchopt

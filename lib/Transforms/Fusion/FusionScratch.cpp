#include "FusionScratch.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include <set>

namespace launchopt {

using namespace clang;

namespace {

// Host functions followed from the host function into the calls it passes
// an allocation to: enough for wrappers of wrappers.
const unsigned MaxCallDepth = 4;

bool isAllocation(llvm::StringRef Callee) {
  return Callee == "cudaMalloc" || Callee == "cudaMallocAsync" ||
         Callee == "cudaMallocFromPoolAsync";
}

bool isRelease(llvm::StringRef Callee) { return Callee == "cudaFree" || Callee == "cudaFreeAsync"; }

const DeclRefExpr *refTo(const Expr *E, const VarDecl *V) {
  const auto *R = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return R && R->getDecl() == V ? R : nullptr;
}

class ScratchUses : public RecursiveASTVisitor<ScratchUses> {
public:
  ScratchUses(const VarDecl *V, const std::set<const CUDAKernelCallExpr *> &Sequence,
              unsigned Depth)
      : V(V), Sequence(Sequence), Depth(Depth) {}

  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (R->getDecl() == V)
      All.insert(R);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (const DeclRefExpr *R = refTo(Arg, V)) {
        if (acceptsWhole(Call, Callee, I))
          Accepted.insert(R);
        continue;
      }
      const auto *Address = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
      if (Address && Address->getOpcode() == UO_AddrOf && I == 0 && Callee &&
          isAllocation(Callee->getName()))
        if (const DeclRefExpr *R = refTo(Address->getSubExpr(), V))
          Accepted.insert(R);
    }
    return true;
  }

  bool onlyAccepted() const { return All.size() == Accepted.size(); }

private:
  const VarDecl *V;
  const std::set<const CUDAKernelCallExpr *> &Sequence;
  unsigned Depth;
  std::set<const DeclRefExpr *> All, Accepted;

  // The whole pointer passed as argument I: to a launch of the sequence, to
  // a release, or to a host function that only does these with it.
  bool acceptsWhole(const CallExpr *Call, const FunctionDecl *Callee, unsigned I) const;
};

bool onlySequenceSees(const FunctionDecl &F, const VarDecl *V,
                      const std::set<const CUDAKernelCallExpr *> &Sequence, unsigned Depth) {
  if (!F.hasBody())
    return false;
  ScratchUses Uses(V, Sequence, Depth);
  Uses.TraverseStmt(F.getBody());
  return Uses.onlyAccepted();
}

bool ScratchUses::acceptsWhole(const CallExpr *Call, const FunctionDecl *Callee, unsigned I) const {
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call))
    return Sequence.count(Launch) > 0;
  if (!Callee)
    return false;
  if (isRelease(Callee->getName()))
    return I == 0;
  const FunctionDecl *Definition = Callee->getDefinition();
  if (!Definition || Depth >= MaxCallDepth || I >= Definition->getNumParams() ||
      Definition->hasAttr<CUDAGlobalAttr>() || Definition->hasAttr<CUDADeviceAttr>())
    return false;
  return onlySequenceSees(*Definition, Definition->getParamDecl(I), Sequence, Depth + 1);
}

// A local pointer of the host function that starts null or uninitialised,
// so that no other name holds its allocation from the start.
bool isFreshLocal(const VarDecl *V, const FunctionDecl &Host) {
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
      V->getDeclContext() != static_cast<const DeclContext *>(&Host) ||
      !V->getType()->isPointerType())
    return false;
  const Expr *Init = V->getInit();
  return !Init ||
         Init->isNullPointerConstant(V->getASTContext(), Expr::NPC_ValueDependentIsNotNull);
}

} // namespace

void markScratchArrays(FusionExtraction &X) {
  if (!X.Host)
    return;
  std::set<const CUDAKernelCallExpr *> Sequence;
  for (const ExtractedLaunch &L : X.Launches)
    Sequence.insert(L.Site->Call);
  for (unsigned A = 0; A < X.Problem.Arrays.size() && A < X.Allocations.size(); ++A)
    X.Problem.Arrays[A].Scratch = isFreshLocal(X.Allocations[A], *X.Host) &&
                                  onlySequenceSees(*X.Host, X.Allocations[A], Sequence, 0);
}

} // namespace launchopt

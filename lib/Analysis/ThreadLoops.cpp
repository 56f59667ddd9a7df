#include "ThreadLoops.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <set>

namespace launchopt {

namespace {

// `for (int i = A; i < B; ++i)` (or `<=`, `!=`) with A and B integer
// constants at most LoopConstantLimit apart.
bool shortConstantLoop(const clang::ForStmt &For, const clang::ASTContext &Ctx) {
  const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(For.getInit());
  const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(For.getCond());
  if (!Init || !Init->isSingleDecl() || !Cond)
    return false;
  const auto *Var = llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl());
  if (!Var || !Var->getInit())
    return false;
  std::optional<llvm::APSInt> From = Var->getInit()->getIntegerConstantExpr(Ctx);
  std::optional<llvm::APSInt> To = Cond->getRHS()->getIntegerConstantExpr(Ctx);
  const auto *Lhs = llvm::dyn_cast<clang::DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!From || !To || !Lhs || Lhs->getDecl() != Var)
    return false;
  const auto *Step = llvm::dyn_cast_or_null<clang::UnaryOperator>(For.getInc());
  if (!Step || !Step->isIncrementOp())
    return false;
  bool Counts = Cond->getOpcode() == clang::BO_LT || Cond->getOpcode() == clang::BO_LE ||
                Cond->getOpcode() == clang::BO_NE;
  int64_t Trips = To->getExtValue() - From->getExtValue();
  return Counts && Trips <= int64_t(LoopConstantLimit);
}

class LoopFinder : public clang::RecursiveASTVisitor<LoopFinder> {
public:
  explicit LoopFinder(const clang::ASTContext &Ctx) : Ctx(Ctx) {}

  bool found() const { return Found; }

  void visitFunction(const clang::FunctionDecl &F) {
    const clang::FunctionDecl *Definition = nullptr;
    // A recursion is a loop too.
    if (!F.hasBody(Definition) || OnStack.count(Definition)) {
      Found = true;
      return;
    }
    if (!Seen.insert(Definition).second)
      return;
    OnStack.insert(Definition);
    TraverseStmt(Definition->getBody());
    OnStack.erase(Definition);
  }

  bool VisitForStmt(clang::ForStmt *S) {
    if (!shortConstantLoop(*S, Ctx))
      Found = true;
    return !Found;
  }
  bool VisitWhileStmt(clang::WhileStmt *) { return !(Found = true); }
  bool VisitDoStmt(clang::DoStmt *) { return !(Found = true); }
  bool VisitCXXForRangeStmt(clang::CXXForRangeStmt *) { return !(Found = true); }
  bool VisitGotoStmt(clang::GotoStmt *) { return !(Found = true); }

  bool VisitCallExpr(clang::CallExpr *Call) {
    // Launches are the child's own children: their work is not this thread's.
    if (llvm::isa<clang::CUDAKernelCallExpr>(Call))
      return true;
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee) {
      Found = true;
      return false;
    }
    // CUDA's and the compiler's own functions (atomics, intrinsics) do not loop.
    if (Callee->getBuiltinID() != 0 ||
        Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
      return true;
    visitFunction(*Callee);
    return !Found;
  }

private:
  const clang::ASTContext &Ctx;
  std::set<const clang::FunctionDecl *> Seen, OnStack;
  bool Found = false;
};

} // namespace

bool threadsMayLoop(const clang::FunctionDecl &Kernel) {
  LoopFinder Finder(Kernel.getASTContext());
  Finder.visitFunction(Kernel);
  return Finder.found();
}

} // namespace launchopt

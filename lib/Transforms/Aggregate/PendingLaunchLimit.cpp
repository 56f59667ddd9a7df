#include "PendingLaunchLimit.h"
#include "Analysis/SourceText.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace launchopt {
namespace {

bool namesPendingLaunchCount(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && llvm::isa<clang::EnumConstantDecl>(Ref->getDecl()) &&
         Ref->getDecl()->getName() == "cudaLimitDevRuntimePendingLaunchCount";
}

class LimitCalls : public clang::RecursiveASTVisitor<LimitCalls> {
public:
  explicit LimitCalls(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    const clang::FunctionDecl *Outer = Function;
    Function = F;
    bool Go = clang::RecursiveASTVisitor<LimitCalls>::TraverseFunctionDecl(F);
    Function = Outer;
    return Go;
  }

  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Callee->getName() != "cudaDeviceSetLimit" || Call->getNumArgs() < 2 ||
        !namesPendingLaunchCount(Call->getArg(0)) ||
        !Ctx.getSourceManager().isInMainFile(Call->getBeginLoc()))
      return true;
    LaunchRemark R;
    R.Position = positionOf(Ctx, Call->getBeginLoc());
    R.Pass = "aggregate";
    R.Subject = "cudaDeviceSetLimit";
    R.Parent = Function ? Function->getNameAsString() : "";
    R.Note = true;
    R.Message = "cudaLimitDevRuntimePendingLaunchCount left as written: the aggregated code keeps "
                "far fewer launches pending than one per parent thread, and a pool sized far past "
                "them slows every device launch; size the limit to the launches that remain";
    Notes.push_back(R);
    return true;
  }

  std::vector<LaunchRemark> Notes;

private:
  clang::ASTContext &Ctx;
  const clang::FunctionDecl *Function = nullptr;
};

} // namespace

std::vector<LaunchRemark> pendingLaunchLimitNotes(clang::ASTContext &Ctx) {
  LimitCalls Visitor(Ctx);
  Visitor.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Visitor.Notes;
}

} // namespace launchopt

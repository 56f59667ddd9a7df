#include "PromoteAcceptance.h"

#include "Analysis/LaunchPlacement.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VariableWrites.h"
#include "Transforms/Common/Refusal.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace launchopt {

namespace {

// Whether E is the literal grid of one block: 1, dim3(1), dim3(1, 1, 1).
bool isSingleBlock(const clang::ASTContext &Ctx, const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Construct = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    for (const clang::Expr *Arg : Construct->arguments()) {
      if (llvm::isa<clang::CXXDefaultArgExpr>(Arg))
        continue;
      if (!isSingleBlock(Ctx, Arg))
        return false;
    }
    return true;
  }
  if (const auto *Temp = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
    return isSingleBlock(Ctx, Temp->getSubExpr());
  if (const auto *Functional = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(E))
    return isSingleBlock(Ctx, Functional->getSubExpr());
  clang::Expr::EvalResult Value;
  return !E->isValueDependent() && E->EvaluateAsInt(Value, Ctx) && Value.Val.getInt() == 1;
}

// The first variable a configuration operand reads that the kernel's start
// does not have: a local of the kernel's body, or a parameter it writes.
class LateValueFinder : public clang::RecursiveASTVisitor<LateValueFinder> {
public:
  explicit LateValueFinder(const clang::FunctionDecl &Kernel) : Kernel(Kernel) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    const auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!Var)
      return true;
    bool Late =
        llvm::isa<clang::ParmVarDecl>(Var) ? isWrittenIn(&Kernel, Var) : Var->hasLocalStorage();
    if (Late && !Found)
      Found = Var;
    return true;
  }
  const clang::VarDecl *Found = nullptr;

private:
  const clang::FunctionDecl &Kernel;
};

llvm::Error knownAtStart(clang::ASTContext &Ctx, const LaunchSite &Site, const clang::Expr *E,
                         const char *What) {
  if (!E)
    return llvm::Error::success();
  LateValueFinder Finder(*Site.Parent);
  Finder.TraverseStmt(const_cast<clang::Expr *>(E));
  if (Finder.Found)
    return refusal(llvm::Twine("the launch's ") + What + " reads '" + Finder.Found->getName() +
                   "', which is not known at the kernel's start (the successor is launched there)");
  if (!isUniform(Ctx, *E, *Site.Parent, UniformityScope::Block))
    return refusal(llvm::Twine("the launch's ") + What +
                   " may differ between the threads of a block or read memory; it cannot be "
                   "evaluated at the kernel's start");
  return llvm::Error::success();
}

// Whether S, written after the launch in the same block of statements, may
// stay after it: the check of the launch's error, an empty statement or a
// plain `return;`.
bool mayFollowLaunch(const clang::Stmt *S) {
  if (llvm::isa<clang::NullStmt>(S))
    return true;
  if (const auto *Return = llvm::dyn_cast<clang::ReturnStmt>(S))
    return !Return->getRetValue();
  const auto *If = llvm::dyn_cast<clang::IfStmt>(S);
  if (!If)
    return false;
  struct ErrorQuery : clang::RecursiveASTVisitor<ErrorQuery> {
    bool VisitCallExpr(clang::CallExpr *Call) {
      if (const clang::FunctionDecl *F = Call->getDirectCallee())
        Found |= F->getName() == "cudaGetLastError" || F->getName() == "cudaPeekAtLastError";
      return true;
    }
    bool Found = false;
  } Query;
  Query.TraverseStmt(const_cast<clang::Expr *>(If->getCond()));
  return Query.Found;
}

// Success when nothing of the kernel runs after the launch but the check of
// its error: the launch is the last statement of its block, and so is every
// enclosing `if` up to the kernel's body.
llvm::Error tailPosition(clang::ASTContext &Ctx, const LaunchSite &Site) {
  const clang::Stmt *Body = Site.Parent->getBody();
  clang::DynTypedNode Node = clang::DynTypedNode::create(*Site.Call);
  const clang::Stmt *Current = Site.Call;
  while (Current != Body) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return refusal("the launch's place in the kernel cannot be followed to the kernel's body");
    const clang::Stmt *Parent = Parents[0].get<clang::Stmt>();
    if (!Parent)
      return refusal("the launch's place in the kernel cannot be followed to the kernel's body");
    if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Parent)) {
      bool After = false;
      for (const clang::Stmt *S : Block->body()) {
        if (After && !mayFollowLaunch(S))
          return refusal(
              "the launch is not in tail position: a statement at line " +
              llvm::Twine(Ctx.getSourceManager().getPresumedLineNumber(S->getBeginLoc())) +
              " runs after it");
        After |= S == Current;
      }
    } else if (const auto *If = llvm::dyn_cast<clang::IfStmt>(Parent)) {
      if (If->getCond() == Current || If->getInit() == Current)
        return refusal("the launch is part of an if's condition");
    } else if (!llvm::isa<clang::ExprWithCleanups>(Parent) &&
               !llvm::isa<clang::AttributedStmt>(Parent)) {
      return refusal(llvm::Twine("the launch is not in tail position: it is inside a ") +
                     Parent->getStmtClassName());
    }
    Current = Parent;
    Node = Parents[0];
  }
  return llvm::Error::success();
}

// Whether the kernel's parameter Index can be copied as bytes; a template's
// parameter of dependent type, in every instantiation the file makes.
bool triviallyCopyable(const clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                       unsigned Index) {
  clang::QualType Type = Kernel.getParamDecl(Index)->getType();
  if (!Type->isDependentType())
    return Type.isTriviallyCopyableType(Ctx);
  const clang::FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate();
  if (!Template)
    return false;
  for (const clang::FunctionDecl *Instance : Template->specializations())
    if (Index >= Instance->getNumParams() ||
        !Instance->getParamDecl(Index)->getType().isTriviallyCopyableType(Ctx))
      return false;
  return true;
}

} // namespace

llvm::Error promotionRefusal(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                             const LaunchSite &Site) {
  if (!Site.DeviceSide)
    return refusal("host-side launch: promotion applies to a kernel's launch of itself");
  if (!Site.Child)
    return refusal(Site.UnresolvedReason);
  if (!Site.LeftByPlan.empty())
    return refusal(Site.LeftByPlan);
  if (!Site.Parent->hasAttr<clang::CUDAGlobalAttr>())
    return refusal("the launch is in a device function, not directly in a kernel");
  if (Site.Child->getCanonicalDecl() != Site.Parent->getCanonicalDecl())
    return refusal("the kernel launches another kernel: promotion takes a kernel's launch of "
                   "itself (a chain of single-block steps)");
  if (Site.Parent->getTemplateSpecializationKind() == clang::TSK_ExplicitSpecialization)
    return refusal("the kernel is an explicit specialization of a template: its promoted "
                   "copies would need the template's own");
  if (const clang::FunctionTemplateDecl *Template = Site.Parent->getDescribedFunctionTemplate())
    for (const clang::NamedDecl *P : *Template->getTemplateParameters())
      if (P->isParameterPack())
        return refusal("the kernel's template has a parameter pack ('" + P->getName() +
                       "'): the postponed arguments' struct could not hold a pack");
  auto Siblings = Launches.SitesByParent.find(Site.Parent);
  if (Siblings != Launches.SitesByParent.end() && Siblings->second.size() > 1)
    return refusal("the kernel has other launches besides this one; the promoted successor "
                   "would no longer be ordered after them");
  if (Site.InLoop)
    return refusal("the launch is in a loop: a block would need more than one successor");
  // Thread zero is the block's leader, which hands the successor over.
  if (!Site.ThreadZeroPerBlock)
    return refusal(Site.OneThreadPerBlock
                       ? "the launch is made by one thread of a block, but not thread zero, "
                         "which the promoted code makes the block's leader"
                       : "the launch may be reached by more than one thread of a block "
                         "(promotion hands each block one successor; the launch needs an if "
                         "on threadIdx == 0)");
  if (Site.StreamKind != LaunchStream::Default && Site.StreamKind != LaunchStream::FireAndForget)
    return refusal(llvm::Twine("the successor is launched into a ") + streamName(Site.StreamKind) +
                   " stream");
  if (!isWholeStatement(Ctx, *Site.Call))
    return refusal("the launch's value is used: it is not a statement of its own");
  if (!isSingleBlock(Ctx, writtenOperand(Site.Grid)))
    return refusal("the successor's grid is not a single block written as 1 (promotion chains "
                   "single-block steps)");
  if (llvm::Error E = knownAtStart(Ctx, Site, writtenOperand(Site.Block), "block size"))
    return E;
  if (llvm::Error E =
          knownAtStart(Ctx, Site, writtenOperand(Site.SharedMemory), "shared memory size"))
    return E;
  for (const clang::ParmVarDecl *P : Site.Parent->parameters()) {
    if (P->getName().empty())
      return refusal("the kernel has an unnamed parameter");
    if (P->getType()->isReferenceType() || P->getOriginalType()->isArrayType())
      return refusal("the parameter '" + P->getName() +
                     "' cannot be stored for the successor (a reference or an array)");
    if (!triviallyCopyable(Ctx, *Site.Parent, P->getFunctionScopeIndex()))
      return refusal("the parameter '" + P->getName() +
                     "' is not trivially copyable: its argument cannot be postponed through "
                     "a buffer");
  }
  return tailPosition(Ctx, Site);
}

} // namespace launchopt

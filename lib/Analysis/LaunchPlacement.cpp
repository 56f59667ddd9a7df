#include "LaunchPlacement.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

namespace launchopt {

bool isWholeStatement(clang::ASTContext &Ctx, const clang::CUDAKernelCallExpr &Call) {
  clang::DynTypedNode Node = clang::DynTypedNode::create(Call);
  const clang::Stmt *Child = &Call;
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const clang::Stmt *Parent = Parents[0].get<clang::Stmt>();
    if (!Parent)
      return false;
    if (llvm::isa<clang::ExprWithCleanups>(Parent)) {
      Child = Parent;
      Node = Parents[0];
      continue;
    }
    if (llvm::isa<clang::CompoundStmt, clang::CaseStmt, clang::DefaultStmt, clang::LabelStmt>(
            Parent))
      return true;
    if (auto *If = llvm::dyn_cast<clang::IfStmt>(Parent))
      return If->getThen() == Child || If->getElse() == Child;
    if (auto *For = llvm::dyn_cast<clang::ForStmt>(Parent))
      return For->getBody() == Child;
    if (auto *While = llvm::dyn_cast<clang::WhileStmt>(Parent))
      return While->getBody() == Child;
    if (auto *Do = llvm::dyn_cast<clang::DoStmt>(Parent))
      return Do->getBody() == Child;
    if (auto *Range = llvm::dyn_cast<clang::CXXForRangeStmt>(Parent))
      return Range->getBody() == Child;
    return false;
  }
}

bool sameNamespace(const LaunchSite &Site) {
  return Site.Parent->getDeclContext()->getRedeclContext() ==
         Site.Child->getDeclContext()->getRedeclContext();
}

bool sameEnclosingNamespace(const LaunchSite &Site) {
  return Site.Parent->getEnclosingNamespaceContext()->getRedeclContext() ==
         Site.Child->getEnclosingNamespaceContext()->getRedeclContext();
}

} // namespace launchopt

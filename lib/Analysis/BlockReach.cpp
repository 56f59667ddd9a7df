#include "BlockReach.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace launchopt {

namespace {

// Whether a statement written before Limit leaves the kernel or jumps.
class EarlyExitFinder : public clang::RecursiveASTVisitor<EarlyExitFinder> {
public:
  EarlyExitFinder(const clang::SourceManager &SM, clang::SourceLocation Limit)
      : SM(SM), Limit(Limit) {}
  bool VisitReturnStmt(clang::ReturnStmt *R) { return note(R->getBeginLoc()); }
  bool VisitGotoStmt(clang::GotoStmt *G) { return note(G->getBeginLoc()); }
  bool VisitIndirectGotoStmt(clang::IndirectGotoStmt *G) { return note(G->getBeginLoc()); }
  bool Found = false;

private:
  bool note(clang::SourceLocation Loc) {
    if (SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loc), Limit))
      Found = true;
    return !Found;
  }
  const clang::SourceManager &SM;
  clang::SourceLocation Limit;
};

// Nodes that evaluate all of their children whenever they are evaluated.
bool evaluatesEveryChild(const clang::DynTypedNode &Node) {
  if (Node.get<clang::CompoundStmt>() || Node.get<clang::DeclStmt>() || Node.get<clang::VarDecl>())
    return true;
  const auto *E = Node.get<clang::Expr>();
  if (!E)
    return false;
  if (llvm::isa<clang::AbstractConditionalOperator>(E) || llvm::isa<clang::LambdaExpr>(E))
    return false;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E))
    return !B->isLogicalOp();
  return true;
}

} // namespace

bool reachedByWholeBlock(clang::ASTContext &Ctx, const clang::Stmt &S,
                         const clang::FunctionDecl &Kernel) {
  const clang::Stmt *Body = Kernel.getBody();
  if (!Body)
    return false;
  clang::DynTypedNode Node = clang::DynTypedNode::create(S);
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return false;
    Node = Parents[0];
    if (Node.get<clang::Stmt>() == Body)
      break;
    if (!evaluatesEveryChild(Node))
      return false;
  }
  if (Node.get<clang::Stmt>() != Body)
    return false;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  EarlyExitFinder Exits(SM, SM.getExpansionLoc(S.getBeginLoc()));
  Exits.TraverseStmt(const_cast<clang::Stmt *>(Body));
  return !Exits.Found;
}

} // namespace launchopt

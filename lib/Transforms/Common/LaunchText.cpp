#include "LaunchText.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

namespace launchopt {

std::string LaunchText::trailingConfig() const {
  std::string S;
  if (!SharedMemory.empty())
    S += ", " + SharedMemory;
  if (!Stream.empty())
    S += ", " + Stream;
  return S;
}

namespace {

std::string indentationAt(llvm::StringRef Buffer, unsigned Offset) {
  size_t LineStart = Buffer.rfind('\n', Offset);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  size_t End = LineStart;
  while (End < Offset && (Buffer[End] == ' ' || Buffer[End] == '\t'))
    ++End;
  return Buffer.substr(LineStart, End - LineStart).str();
}

bool operandText(const clang::ASTContext &Ctx, const clang::Expr *E, std::string &Out) {
  if (!E)
    return true;
  std::optional<FileRange> R = spelledRange(Ctx, E->getSourceRange());
  if (!R)
    return false;
  Out = textOf(Ctx, *R);
  return true;
}

// The launch is replaced by a block, which is valid only where the launch is
// a statement of its own: not where its value is used (`(void)k<<<...>>>()`,
// `return k<<<...>>>()`), nor as a for-loop's init or increment.
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

bool isOrderedStream(LaunchStream S) {
  return S == LaunchStream::Default || S == LaunchStream::Named;
}

} // namespace

bool mayReorderWithEarlierLaunch(const LaunchAnalysis &A, const LaunchSite &Site) {
  if (!isOrderedStream(Site.StreamKind))
    return false;
  if (Site.InLoop)
    return true;
  for (unsigned I : A.SitesByParent.at(Site.Parent))
    if (A.Sites[I].Id < Site.Id && isOrderedStream(A.Sites[I].StreamKind))
      return true;
  return false;
}

LaunchTextOrReason readLaunchText(clang::ASTContext &Ctx, const LaunchSite &Site) {
  LaunchTextOrReason Result;
  std::optional<FileRange> Call = writtenRange(Ctx, Site.Call->getSourceRange());
  if (!Call) {
    Result.Reason = "the launch is written inside a macro expansion";
    return Result;
  }
  const clang::SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  size_t Semi = Call->End;
  while (Semi < Buffer.size() && (Buffer[Semi] == ' ' || Buffer[Semi] == '\t'))
    ++Semi;
  if (Semi >= Buffer.size() || Buffer[Semi] != ';' || !isWholeStatement(Ctx, *Site.Call)) {
    Result.Reason = "the launch is not a statement of its own (its value is used, or it is a "
                    "for-loop's init or increment)";
    return Result;
  }
  LaunchText T;
  T.Statement = {Call->Begin, static_cast<unsigned>(Semi + 1)};
  T.Indent = indentationAt(Buffer, Call->Begin);
  std::optional<FileRange> Callee = writtenRange(Ctx, Site.Call->getCallee()->getSourceRange());
  if (!Callee) {
    Result.Reason = "the launched kernel's name comes from a macro";
    return Result;
  }
  T.Callee = textOf(Ctx, *Callee);
  if (!Site.Grid || !Site.Block || !operandText(Ctx, Site.Grid, T.Grid) ||
      !operandText(Ctx, Site.Block, T.Block) ||
      !operandText(Ctx, Site.SharedMemory, T.SharedMemory) ||
      !operandText(Ctx, Site.Stream, T.Stream)) {
    Result.Reason = "the launch configuration cannot be read from the source";
    return Result;
  }
  if (!Site.Arguments.empty()) {
    std::optional<FileRange> R = spelledRange(
        Ctx, {Site.Arguments.front()->getBeginLoc(), Site.Arguments.back()->getEndLoc()});
    if (!R) {
      Result.Reason = "the launch arguments cannot be read from the source";
      return Result;
    }
    T.Arguments = textOf(Ctx, *R);
    for (const clang::Expr *Argument : Site.Arguments) {
      std::optional<FileRange> One = spelledRange(Ctx, Argument->getSourceRange());
      if (!One) {
        T.ArgumentTexts.clear();
        break;
      }
      T.ArgumentTexts.push_back(textOf(Ctx, *One));
    }
  }
  // Generated calls have no default arguments: a default written for the
  // kernel's declaration need not mean the same at the launch.
  if (Site.Arguments.size() != Site.Call->getNumArgs()) {
    Result.Reason = "the launch relies on default arguments of the child";
    return Result;
  }
  Result.Text = std::move(T);
  return Result;
}

std::optional<std::string> prefixedCallee(const clang::ASTContext &Ctx, const LaunchSite &Site,
                                          const std::string &Prefix) {
  const clang::Expr *Callee = Site.Call->getCallee()->IgnoreImplicit();
  clang::SourceLocation NameLoc;
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
    NameLoc = Ref->getLocation();
  else if (auto *ULE = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
    NameLoc = ULE->getNameLoc();
  std::optional<FileRange> Whole = writtenRange(Ctx, Callee->getSourceRange());
  std::optional<FileRange> Name = writtenRange(Ctx, NameLoc);
  if (!Whole || !Name || !Whole->contains(*Name))
    return std::nullopt;
  return textOf(Ctx, {Whole->Begin, Name->Begin}) + Prefix + Site.ChildName +
         textOf(Ctx, {Name->End, Whole->End});
}

unsigned definitionStart(const clang::ASTContext &Ctx, const clang::FunctionDecl &F) {
  const clang::Decl *D = &F;
  if (const clang::FunctionTemplateDecl *T = F.getDescribedFunctionTemplate())
    D = T;
  std::optional<FileRange> R = spelledRange(Ctx, D->getSourceRange());
  return R ? R->Begin : 0;
}

bool sameNamespace(const LaunchSite &Site) {
  return Site.Parent->getDeclContext()->getRedeclContext() ==
         Site.Child->getDeclContext()->getRedeclContext();
}

} // namespace launchopt

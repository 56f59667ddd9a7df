#include "LaunchText.h"

#include "Refusal.h"
#include "Analysis/LaunchPlacement.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

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

} // namespace

llvm::Expected<LaunchText> readLaunchText(clang::ASTContext &Ctx, const LaunchSite &Site) {
  std::optional<FileRange> Call = writtenRange(Ctx, Site.Call->getSourceRange());
  if (!Call)
    return refusal("the launch is written inside a macro expansion");
  const clang::SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  size_t Semi = Call->End;
  while (Semi < Buffer.size() && (Buffer[Semi] == ' ' || Buffer[Semi] == '\t'))
    ++Semi;
  if (Semi >= Buffer.size() || Buffer[Semi] != ';' || !isWholeStatement(Ctx, *Site.Call))
    return refusal("the launch is not a statement of its own (its value is used, or it is a "
                   "for-loop's init or increment)");
  LaunchText T;
  T.Statement = {Call->Begin, static_cast<unsigned>(Semi + 1)};
  T.Indent = indentationAt(Buffer, Call->Begin);
  std::optional<FileRange> Callee = writtenRange(Ctx, launchedKernel(*Site.Call)->getSourceRange());
  if (!Callee)
    return refusal("the launched kernel's name comes from a macro");
  T.Callee = textOf(Ctx, *Callee);
  // A recovered launch of an overloaded kernel reads a reference the output
  // does not keep; the name was written unqualified.
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(launchedKernel(*Site.Call)))
    if (auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
        Var && isRecoveredLaunchReference(*Var))
      T.Callee = Site.ChildName;
  if (!Site.Grid || !Site.Block || !operandText(Ctx, Site.Grid, T.Grid) ||
      !operandText(Ctx, Site.Block, T.Block) ||
      !operandText(Ctx, Site.SharedMemory, T.SharedMemory) ||
      !operandText(Ctx, Site.Stream, T.Stream))
    return refusal("the launch configuration cannot be read from the source");
  if (!Site.Arguments.empty()) {
    std::optional<FileRange> R = spelledRange(
        Ctx, {Site.Arguments.front()->getBeginLoc(), Site.Arguments.back()->getEndLoc()});
    if (!R)
      return refusal("the launch arguments cannot be read from the source");
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
  if (Site.Arguments.size() != Site.Call->getNumArgs())
    return refusal("the launch relies on default arguments of the child");
  return std::move(T);
}

llvm::Expected<std::string> prefixedCallee(const clang::ASTContext &Ctx, const LaunchSite &Site,
                                           const std::string &Prefix) {
  const clang::Expr *Callee = launchedKernel(*Site.Call);
  clang::SourceLocation NameLoc;
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
    NameLoc = Ref->getLocation();
  else if (auto *ULE = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
    NameLoc = ULE->getNameLoc();
  std::optional<FileRange> Whole = writtenRange(Ctx, Callee->getSourceRange());
  std::optional<FileRange> Name = writtenRange(Ctx, NameLoc);
  if (!Whole || !Name || !Whole->contains(*Name))
    return refusal("the launched kernel's name comes from a macro");
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

} // namespace launchopt

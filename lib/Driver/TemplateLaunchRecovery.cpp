#include "TemplateLaunchRecovery.h"

#include "Analysis/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <vector>

namespace launchopt {

namespace {

// Comments, so that the parser reads only `(*&k<...>)`; they never reach an
// output, which is why they are not among the generated names.
const std::string OpenMarker = "(/*launchopt:recovered-launch*/*&";
const std::string CloseMarker = "/*launchopt:end*/)";

// Whether the template arguments written at a launch leave nothing to deduce.
bool namesOneSpecialization(const clang::UnresolvedLookupExpr &Lookup) {
  if (!Lookup.hasExplicitTemplateArgs() || Lookup.getNumDecls() != 1)
    return false;
  const auto *Template = llvm::dyn_cast<clang::FunctionTemplateDecl>(*Lookup.decls_begin());
  if (!Template || !Template->getTemplatedDecl()->hasAttr<clang::CUDAGlobalAttr>())
    return false;
  unsigned Required = 0;
  for (const clang::NamedDecl *Param : *Template->getTemplateParameters()) {
    if (Param->isTemplateParameterPack())
      return false;
    bool HasDefault = false;
    if (const auto *T = llvm::dyn_cast<clang::TemplateTypeParmDecl>(Param))
      HasDefault = T->hasDefaultArgument();
    else if (const auto *N = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(Param))
      HasDefault = N->hasDefaultArgument();
    else if (const auto *TT = llvm::dyn_cast<clang::TemplateTemplateParmDecl>(Param))
      HasDefault = TT->hasDefaultArgument();
    if (!HasDefault)
      ++Required;
  }
  return Lookup.getNumTemplateArgs() >= Required;
}

// The written ranges of the kernel names (`k<float>`) of dropped launches
// that can be recovered.
class DroppedLaunchFinder : public clang::RecursiveASTVisitor<DroppedLaunchFinder> {
public:
  DroppedLaunchFinder(const clang::ASTContext &Ctx, const std::string &Text)
      : Ctx(Ctx), Text(Text) {}

  bool VisitRecoveryExpr(clang::RecoveryExpr *E) {
    if (E->subExpressions().empty())
      return true;
    const auto *Lookup =
        llvm::dyn_cast<clang::UnresolvedLookupExpr>(E->subExpressions().front()->IgnoreParens());
    if (!Lookup || !namesOneSpecialization(*Lookup))
      return true;
    std::optional<FileRange> Name = writtenRange(Ctx, Lookup->getSourceRange());
    if (!Name || Name->End > Text.size())
      return true;
    size_t After = Text.find_first_not_of(" \t\r\n", Name->End);
    if (After == std::string::npos || Text.compare(After, 3, "<<<") != 0)
      return true;
    for (const FileRange &Seen : Names)
      if (Seen.Begin == Name->Begin)
        return true;
    Names.push_back(*Name);
    return true;
  }

  std::vector<FileRange> Names;

private:
  const clang::ASTContext &Ctx;
  const std::string &Text;
};

} // namespace

RecoveredParse
parseRecoveringTemplateLaunches(const clang::tooling::CompilationDatabase &Compilations,
                                const std::string &File, const ParseEnvironment &Env,
                                const std::string &Text) {
  RecoveredParse R;
  R.ParsedText = Text;
  R.Parsed = parseCudaFile(Compilations, File, Env, &Text);
  if (!R.Parsed)
    return R;
  clang::ASTContext &Ctx = R.Parsed->Unit->getASTContext();
  DroppedLaunchFinder Finder(Ctx, Text);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (Finder.Names.empty())
    return R;
  SourceEdits Markers;
  for (const FileRange &Name : Finder.Names) {
    Markers.insert(Name.Begin, OpenMarker);
    Markers.insert(Name.End, CloseMarker);
  }
  llvm::Expected<std::string> Marked = Markers.apply(Text);
  if (!Marked) {
    llvm::consumeError(Marked.takeError());
    return R;
  }
  // The marked text fails to parse only where the analysis above was wrong
  // about a launch; the first parse, with the launches dropped, still stands.
  std::unique_ptr<ParsedFile> Recovered = parseCudaFile(Compilations, File, Env, &*Marked);
  if (!Recovered)
    return R;
  R.Parsed = std::move(Recovered);
  R.ParsedText = std::move(*Marked);
  R.Markers = std::move(Markers);
  return R;
}

void restoreInputPositions(const RecoveredParse &R, const std::string &Text, LaunchAnalysis &A) {
  if (R.Markers.empty())
    return;
  // Markers hold no line break: a position moves along its line only.
  auto LineStart = [](const std::string &S, unsigned Line) {
    size_t Offset = 0;
    for (unsigned L = 1; L < Line && Offset != std::string::npos; ++L)
      if ((Offset = S.find('\n', Offset)) != std::string::npos)
        ++Offset;
    return Offset == std::string::npos ? S.size() : Offset;
  };
  auto Restore = [&](PresumedPosition &P) {
    size_t Parsed = LineStart(R.ParsedText, P.Line) + (P.Column ? P.Column - 1 : 0);
    unsigned Input = R.Markers.originalOffset(static_cast<unsigned>(Parsed));
    P.Column = static_cast<unsigned>(Input - LineStart(Text, P.Line) + 1);
  };
  for (LaunchSite &Site : A.Sites)
    Restore(Site.Position);
  for (UnresolvedLaunch &U : A.Unresolved)
    Restore(U.Position);
}

std::string removeRecoveryMarkers(const std::string &Text, SourceEdits &Removed) {
  size_t Open = Text.find(OpenMarker);
  while (Open != std::string::npos) {
    size_t Close = Text.find(CloseMarker, Open + OpenMarker.size());
    size_t NextOpen = Text.find(OpenMarker, Open + OpenMarker.size());
    if (Close == std::string::npos)
      break;
    if (NextOpen == std::string::npos || Close < NextOpen) {
      Removed.replace(Open, OpenMarker.size(), "");
      Removed.replace(Close, CloseMarker.size(), "");
    }
    Open = NextOpen;
  }
  if (Removed.empty())
    return Text;
  return cantFail(Removed.apply(Text));
}

} // namespace launchopt

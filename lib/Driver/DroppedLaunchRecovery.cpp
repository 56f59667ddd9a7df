#include "DroppedLaunchRecovery.h"

#include "Analysis/SourceText.h"
#include "Transforms/Common/TemplateDeduction.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <set>
#include <vector>

namespace launchopt {

namespace {

// Comments, so that the parser reads only `(*&k<...>)`; they never reach an
// output, which is why they are not among the generated names.
const std::string OpenMarker = "(/*launchopt:recovered-launch*/*&";
const std::string CloseMarker = "/*launchopt:end*/)";

// An overloaded kernel's launch reads `(*&<reference>)`, the name as written
// left in a comment: `(/*...*/*&__lo_ovl1_k/*launchopt:as-written:k*/)`.
const std::string OverloadOpenMarker = "(/*launchopt:recovered-overload*/*&";
const std::string AsWrittenMarker = "/*launchopt:as-written:";
const std::string AsWrittenClose = "*/)";
// The reference, declared on the parent's first line.
const std::string DeclarationOpen = "/*launchopt:recovered-declaration*/";
const std::string DeclarationClose = "/*launchopt:end-declaration*/";
const std::string ReferencePrefix = RecoveredReferencePrefix;

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

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    const clang::FunctionDecl *Saved = Parent;
    Parent = F;
    bool Result = RecursiveASTVisitor::TraverseFunctionDecl(F);
    Parent = Saved;
    return Result;
  }

  bool VisitRecoveryExpr(clang::RecoveryExpr *E) {
    if (E->subExpressions().empty())
      return true;
    const auto *Lookup =
        llvm::dyn_cast<clang::UnresolvedLookupExpr>(E->subExpressions().front()->IgnoreParens());
    if (Lookup && !Lookup->hasExplicitTemplateArgs() && Lookup->getNumDecls() > 1) {
      noteOverloadedLaunch(*E, *Lookup);
      return true;
    }
    if (Lookup && !Lookup->hasExplicitTemplateArgs() && Lookup->getNumDecls() == 1) {
      noteDeducedLaunch(*E, *Lookup);
      return true;
    }
    if (!Lookup || !namesOneSpecialization(*Lookup))
      return true;
    if (std::optional<FileRange> Name = newLaunchName(*Lookup))
      Names.push_back(*Name);
    return true;
  }

  // Launches of a template kernel that leave its arguments to deduction:
  // the name as written, and the template-id the parser reads instead.
  struct DeducedLaunch {
    FileRange Name;
    std::string Spelled;
  };
  std::vector<DeducedLaunch> Deduced;

  std::vector<FileRange> Names;
  // Overloaded launches: the written name, the reference that stands for the
  // chosen kernel, and where the reference's declaration goes (with its text).
  struct OverloadedLaunch {
    FileRange Name;
    std::string Reference;
  };
  std::vector<OverloadedLaunch> Overloads;
  std::map<unsigned, std::string> Declarations; // offset -> declaration text

private:
  // Where the launch writes the kernel's name, right before its `<<<`, or as
  // the argument of a macro whose body launches it (`LAUNCH(k<float>, ...)`:
  // a call of a __global__ function without `<<<` is no valid program, so
  // the dropped call is the launch); none for a name already marked (a
  // launch the traversal meets twice).
  std::optional<FileRange> newLaunchName(const clang::UnresolvedLookupExpr &Lookup) {
    std::optional<FileRange> Name = writtenRange(Ctx, Lookup.getSourceRange());
    const bool MacroArgument =
        !Name && Ctx.getSourceManager().isMacroArgExpansion(Lookup.getBeginLoc());
    if (MacroArgument)
      Name = spelledRange(Ctx, Lookup.getSourceRange());
    if (!Name || Name->End > Text.size())
      return std::nullopt;
    size_t After = Text.find_first_not_of(" \t\r\n", Name->End);
    bool Launched =
        MacroArgument || (After != std::string::npos && Text.compare(After, 3, "<<<") == 0);
    if (!Launched || !MarkedNames.insert(Name->Begin).second)
      return std::nullopt;
    return Name;
  }

  // The one candidate the launch can mean: the arity decides, else the exact
  // (unqualified) types of the arguments; null when neither does.
  static const clang::FunctionDecl *chooseOverload(const clang::RecoveryExpr &E,
                                                   const clang::UnresolvedLookupExpr &Lookup,
                                                   const clang::ASTContext &Ctx) {
    std::vector<const clang::Expr *> Args(E.subExpressions().begin() + 1, E.subExpressions().end());
    std::vector<const clang::FunctionDecl *> ByArity, ByType;
    for (const clang::NamedDecl *D : Lookup.decls()) {
      auto *F = llvm::dyn_cast<clang::FunctionDecl>(D->getUnderlyingDecl());
      if (!F || !F->hasAttr<clang::CUDAGlobalAttr>() || F->getDescribedFunctionTemplate())
        return nullptr; // a template among them: the template remark holds
      if (Args.size() < F->getMinRequiredArguments() || Args.size() > F->getNumParams())
        continue;
      ByArity.push_back(F);
      bool Same = Args.size() == F->getNumParams();
      for (size_t I = 0; Same && I < Args.size(); ++I) {
        clang::QualType Arg = Args[I]->getType();
        if (Arg.isNull() || Arg->isDependentType())
          return nullptr;
        if (Arg->isArrayType() || Arg->isFunctionType())
          Arg = Ctx.getDecayedType(Arg);
        Same = Ctx.hasSameUnqualifiedType(Arg, F->getParamDecl(I)->getType());
      }
      if (Same)
        ByType.push_back(F);
    }
    if (ByArity.size() == 1)
      return ByArity.front();
    return ByType.size() == 1 ? ByType.front() : nullptr;
  }

  void noteOverloadedLaunch(const clang::RecoveryExpr &E,
                            const clang::UnresolvedLookupExpr &Lookup) {
    // The reference is declared at namespace scope before the parent: a
    // parent inside a class, or a qualified name, is left as it is.
    if (!Parent || Lookup.getQualifier() || Parent->isDependentContext() ||
        !Parent->getDeclContext()->getRedeclContext()->isFileContext())
      return;
    const clang::FunctionDecl *Chosen = chooseOverload(E, Lookup, Ctx);
    // The parent's first token may come from a macro (`__global__`): the
    // declaration goes where that macro is written.
    const clang::SourceManager &SM = Ctx.getSourceManager();
    clang::SourceLocation ParentBegin = SM.getExpansionLoc(Parent->getBeginLoc());
    if (!Chosen || !SM.isInMainFile(ParentBegin))
      return;
    // The chosen kernel must be declared before the reference: where it is
    // not (the parent launching itself), it is declared again there, which
    // only its own scope allows.
    bool DeclaredBefore = false;
    for (const clang::FunctionDecl *D : Chosen->redecls())
      DeclaredBefore |= SM.isBeforeInTranslationUnit(D->getLocation(), ParentBegin);
    if (!DeclaredBefore && Chosen->getDeclContext()->getRedeclContext() !=
                               Parent->getDeclContext()->getRedeclContext())
      return;
    std::optional<FileRange> Name = newLaunchName(Lookup);
    if (!Name)
      return;
    std::string Kernel = Chosen->getNameAsString();
    std::string Number = std::to_string(Overloads.size() + 1);
    std::string Reference = ReferencePrefix + Number + "_" + Kernel;
    std::string Type = ReferencePrefix + "t" + Number + "_" + Kernel;
    clang::PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.SuppressScope = false;
    std::string Declaration =
        "using " + Type + " = " +
        clang::TypeName::getFullyQualifiedName(Chosen->getType(), Ctx, Policy) + "; ";
    if (!DeclaredBefore)
      Declaration += "__global__ " + Type + " " + Kernel + "; ";
    Declaration += "static constexpr " + Type + " &" + Reference + " = " + Kernel + "; ";
    Declarations[SM.getFileOffset(ParentBegin)] += Declaration;
    Overloads.push_back({*Name, Reference});
  }

  // A template kernel's launch whose arguments' types show every template
  // argument (`k<<<g, b>>>(p, n)` with `p` a `float *` for `k(T *, int)`):
  // it is read as `k<float>`, the address-taken spelling of an explicit one.
  void noteDeducedLaunch(const clang::RecoveryExpr &E, const clang::UnresolvedLookupExpr &Lookup) {
    const auto *Template = llvm::dyn_cast<clang::FunctionTemplateDecl>(*Lookup.decls_begin());
    if (!Template || !Template->getTemplatedDecl()->hasAttr<clang::CUDAGlobalAttr>())
      return;
    std::vector<const clang::Expr *> Arguments(E.subExpressions().begin() + 1,
                                               E.subExpressions().end());
    std::vector<std::string> Spelled;
    for (unsigned I = 0; I < Template->getTemplateParameters()->size(); ++I) {
      std::string Type = deducedFromArguments(Ctx, Arguments, *Template, I);
      if (Type.empty())
        return;
      Spelled.push_back(Type);
    }
    std::optional<FileRange> Name = newLaunchName(Lookup);
    if (!Name)
      return;
    Deduced.push_back({*Name, Text.substr(Name->Begin, Name->End - Name->Begin) + "<" +
                                  llvm::join(Spelled, ", ") + ">"});
  }

  const clang::ASTContext &Ctx;
  const std::string &Text;
  const clang::FunctionDecl *Parent = nullptr;
  std::set<unsigned> MarkedNames;
};

} // namespace

RecoveredParse
parseRecoveringDroppedLaunches(const clang::tooling::CompilationDatabase &Compilations,
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
  if (Finder.Names.empty() && Finder.Overloads.empty() && Finder.Deduced.empty())
    return R;
  SourceEdits Markers;
  for (const FileRange &Name : Finder.Names) {
    Markers.insert(Name.Begin, OpenMarker);
    Markers.insert(Name.End, CloseMarker);
  }
  for (const auto &[Offset, Declaration] : Finder.Declarations)
    Markers.insert(Offset, DeclarationOpen + Declaration + DeclarationClose);
  for (const auto &Launch : Finder.Overloads) {
    Markers.insert(Launch.Name.Begin, OverloadOpenMarker + Launch.Reference + AsWrittenMarker);
    Markers.insert(Launch.Name.End, AsWrittenClose);
  }
  // The written name goes into a comment, as an overload's does, and is all
  // that an output keeps.
  for (const auto &Launch : Finder.Deduced) {
    Markers.insert(Launch.Name.Begin, OverloadOpenMarker + Launch.Spelled + AsWrittenMarker);
    Markers.insert(Launch.Name.End, AsWrittenClose);
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

// Removes what the overload recovery inserted: the declarations whole, and
// around each launch's name the reference and the comment's delimiters.
static void removeOverloadMarkers(const std::string &Text, SourceEdits &Removed) {
  for (size_t Open = Text.find(DeclarationOpen); Open != std::string::npos;
       Open = Text.find(DeclarationOpen, Open + 1)) {
    size_t Close = Text.find(DeclarationClose, Open);
    if (Close == std::string::npos)
      break;
    Removed.replace(Open, Close + DeclarationClose.size() - Open, "");
  }
  for (size_t Open = Text.find(OverloadOpenMarker); Open != std::string::npos;
       Open = Text.find(OverloadOpenMarker, Open + 1)) {
    size_t Written = Text.find(AsWrittenMarker, Open);
    size_t Close = Written == std::string::npos ? Written : Text.find(AsWrittenClose, Written);
    if (Close == std::string::npos || Text.find('\n', Open) < Close)
      continue;
    Removed.replace(Open, Written + AsWrittenMarker.size() - Open, "");
    Removed.replace(Close, AsWrittenClose.size(), "");
  }
}

std::string removeRecoveryMarkers(const std::string &Text, SourceEdits &Removed) {
  removeOverloadMarkers(Text, Removed);
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

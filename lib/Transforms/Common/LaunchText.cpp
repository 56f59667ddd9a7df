#include "LaunchText.h"

#include "Refusal.h"
#include "TemplateDeduction.h"
#include "Analysis/LaunchPlacement.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

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

// Whether the launch goes through the driver's reference to a recovered
// overload, which stands for the kernel (its name is not the kernel's).
bool isRecoveredReference(const clang::Expr &Callee) {
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(&Callee);
  auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  return Var && isRecoveredLaunchReference(*Var);
}

// Where the launch writes the kernel: the whole callee (`ns::child<T>`)
// and the name in it (`child`), as written in the file: in the launch, or
// as an argument of the macro that writes the launch. Nothing when a macro
// writes the name (`#define KERNEL child<float>`).
std::optional<std::pair<FileRange, FileRange>> calleeRanges(const clang::ASTContext &Ctx,
                                                            const clang::Expr &Callee,
                                                            const std::string &ChildName) {
  clang::SourceLocation NameLoc;
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(&Callee))
    NameLoc = Ref->getLocation();
  else if (auto *ULE = llvm::dyn_cast<clang::UnresolvedLookupExpr>(&Callee))
    NameLoc = ULE->getNameLoc();
  std::optional<FileRange> Whole = spelledRange(Ctx, Callee.getSourceRange());
  std::optional<FileRange> Name = spelledRange(Ctx, NameLoc);
  if (!Whole || !Name || !Whole->contains(*Name) ||
      (!isRecoveredReference(Callee) && textOf(Ctx, *Name) != ChildName))
    return std::nullopt;
  return std::make_pair(*Whole, *Name);
}

std::string printedExpression(const clang::ASTContext &Ctx, const clang::Expr &E) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  E.printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return OS.str();
}

// An operand's text as the user wrote it. In a launch that a macro writes
// (`Macro`: the invocation), text is only taken from the invocation: an
// operand the macro's body wraps (`(g)` around argument `g`) is the
// argument's text in parentheses, and one the body writes alone is printed
// from the AST (the macro's parameters mean nothing at the invocation).
// `From`: where the text was read, when it is E's own text.
bool operandText(const clang::ASTContext &Ctx, const clang::Expr *E, std::string &Out,
                 const FileRange *Macro = nullptr, std::optional<FileRange> *From = nullptr) {
  if (!E)
    return true;
  auto Spelled = [&](const clang::Expr &X) {
    std::optional<FileRange> R = spelledRange(Ctx, X.getSourceRange());
    return R && (!Macro || Macro->contains(*R)) ? R : std::nullopt;
  };
  if (std::optional<FileRange> R = Spelled(*E)) {
    Out = textOf(Ctx, *R);
    if (From)
      *From = R;
    return true;
  }
  if (!Macro)
    return false;
  if (std::optional<FileRange> R = Spelled(*E->IgnoreParenImpCasts()))
    Out = "(" + textOf(Ctx, *R) + ")";
  else
    Out = "(" + printedExpression(Ctx, *E) + ")";
  return true;
}

// The range of a launch that is the whole expansion of a macro invoked as a
// statement (`LAUNCH(child, blocks, threads, a, b);`): the invocation, which
// an edit replaces whole. Nothing when the macro writes more than the launch.
std::optional<FileRange> macroLaunchRange(const clang::ASTContext &Ctx,
                                          const clang::CUDAKernelCallExpr &Call) {
  clang::SourceRange Range = Call.getSourceRange();
  if (!Range.getBegin().isMacroID() || !Range.getEnd().isMacroID())
    return std::nullopt;
  // A launch passed whole to a macro maps to that argument's text, which is
  // followed by the invocation's `)` rather than a `;`: the caller refuses it.
  return spelledRange(Ctx, Range);
}

} // namespace

llvm::Expected<LaunchText> readLaunchText(clang::ASTContext &Ctx, const LaunchSite &Site) {
  std::optional<FileRange> Call = writtenRange(Ctx, Site.Call->getSourceRange());
  const bool InMacro = !Call;
  if (InMacro)
    Call = macroLaunchRange(Ctx, *Site.Call);
  if (!Call)
    return refusal("the launch is written inside a macro expansion that holds more than the "
                   "launch, or in a macro's argument");
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
  const clang::Expr &Kernel = *launchedKernel(*Site.Call);
  std::optional<std::pair<FileRange, FileRange>> Callee = calleeRanges(Ctx, Kernel, Site.ChildName);
  if (!Callee)
    return refusal("the launched kernel's name comes from a macro");
  // A recovered launch of an overloaded kernel reads a reference the output
  // does not keep; the name was written unqualified.
  T.Callee = isRecoveredReference(Kernel) ? Site.ChildName : textOf(Ctx, Callee->first);
  const FileRange *Macro = InMacro ? &*Call : nullptr;
  if (!Site.Grid || !Site.Block || !operandText(Ctx, Site.Grid, T.Grid, Macro, &T.GridRange) ||
      !operandText(Ctx, Site.Block, T.Block, Macro) ||
      !operandText(Ctx, Site.SharedMemory, T.SharedMemory, Macro) ||
      !operandText(Ctx, Site.Stream, T.Stream, Macro))
    return refusal("the launch configuration cannot be read from the source");
  if (!Site.Arguments.empty()) {
    for (const clang::Expr *Argument : Site.Arguments) {
      std::string One;
      if (!operandText(Ctx, Argument, One, Macro)) {
        T.ArgumentTexts.clear();
        break;
      }
      T.ArgumentTexts.push_back(One);
    }
    // A macro's `__VA_ARGS__` spans several of its arguments, which map to
    // the invocation one by one.
    std::optional<FileRange> R = spelledRange(
        Ctx, {Site.Arguments.front()->getBeginLoc(), Site.Arguments.back()->getEndLoc()});
    if (R && (!Macro || Macro->contains(*R)))
      T.Arguments = textOf(Ctx, *R);
    else if (Macro)
      T.Arguments = llvm::join(T.ArgumentTexts, ", ");
    else
      return refusal("the launch arguments cannot be read from the source");
  }
  // Generated calls have no default arguments: a default written for the
  // kernel's declaration need not mean the same at the launch.
  // (In a template the call is not resolved and holds no default arguments:
  // the child's parameters count.)
  if (Site.Arguments.size() != Site.Call->getNumArgs() ||
      (Site.Child && Site.Arguments.size() < Site.Child->getNumParams()))
    return refusal("the launch relies on default arguments of the child");
  return std::move(T);
}

namespace {

bool hasDefaultArgument(const clang::NamedDecl *P) {
  if (auto *T = llvm::dyn_cast<clang::TemplateTypeParmDecl>(P))
    return T->hasDefaultArgument();
  if (auto *N = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(P))
    return N->hasDefaultArgument();
  if (auto *TT = llvm::dyn_cast<clang::TemplateTemplateParmDecl>(P))
    return TT->hasDefaultArgument();
  return false;
}

std::string printed(const clang::ASTContext &Ctx, const clang::TemplateArgument &Arg) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Arg.print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/true);
  return OS.str();
}

// A template parameter's default as the generated copies' callers write it,
// when it does not depend on the other parameters; else "".
std::string printedDefault(const clang::ASTContext &Ctx, const clang::NamedDecl &P) {
  if (auto *T = llvm::dyn_cast<clang::TemplateTypeParmDecl>(&P)) {
    if (!T->hasDefaultArgument())
      return "";
    const clang::TemplateArgument &A = T->getDefaultArgument().getArgument();
    return A.isDependent() ? "" : printed(Ctx, A);
  }
  if (auto *N = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(&P)) {
    if (!N->hasDefaultArgument())
      return "";
    const clang::Expr *E = N->getDefaultArgument().getSourceExpression();
    if (!E || E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
      return "";
    std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
    if (!V)
      return "";
    return "(" + N->getType().getAsString(Ctx.getPrintingPolicy()) + ")" +
           llvm::toString(*V, 10, V->isSigned());
  }
  return "";
}

// ", <arg>..." for the template arguments after the Written ones that the
// launch leaves to the child's defaults or to deduction: the generated
// copies are templates without defaults, and the records of aggregation
// name their types. Taken from the launched specialization; in a template,
// from the arguments' types where they show a type parameter, else from a
// default that depends on nothing and that no parameter could override.
// "" when they cannot all be named but the child has no defaults: copies
// called like the child deduce them alike.
llvm::Expected<std::string> defaultedArguments(const clang::ASTContext &Ctx, const LaunchSite &Site,
                                               const clang::Expr &Callee, unsigned Written) {
  const clang::FunctionTemplateDecl *Template =
      Site.Child ? Site.Child->getDescribedFunctionTemplate() : nullptr;
  if (!Template)
    return "";
  const clang::TemplateParameterList *Params = Template->getTemplateParameters();
  if (Written >= Params->size() || Params->hasParameterPack())
    return "";
  bool Defaults = std::any_of(Params->begin(), Params->end(), hasDefaultArgument);
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(&Callee);
  const clang::FunctionDecl *Launched =
      Ref ? llvm::dyn_cast<clang::FunctionDecl>(Ref->getDecl()) : nullptr;
  const clang::TemplateArgumentList *Specialized =
      Launched ? Launched->getTemplateSpecializationArgs() : nullptr;
  std::string S;
  for (unsigned I = Written; I < Params->size(); ++I) {
    std::string Arg;
    if (Specialized && I < Specialized->size())
      Arg = printed(Ctx, Specialized->get(I));
    else if (!Specialized)
      Arg = deducedInTemplate(Ctx, *Site.Call, *Template, I);
    if (Arg.empty() && !Specialized && (Written > 0 || !deducibleFromParameters(*Template, I)))
      Arg = printedDefault(Ctx, *Params->getParam(I));
    if (Arg.empty() && !Defaults)
      return "";
    if (Arg.empty())
      return refusal("the launch leaves template parameter '" +
                     Params->getParam(I)->getNameAsString() +
                     "' of the child to its default or to deduction in a template, where the "
                     "generated copies cannot name it: write the template arguments out");
    S += ", " + Arg;
  }
  return S;
}

// "<float, (int)128>": every template argument of the launched
// specialization, or "" when the child is not a template or the launch
// writes them all. In a template, the launch's dependent specialization is
// unknown: written arguments are all there is.
llvm::Expected<std::string> allTemplateArguments(const clang::ASTContext &Ctx,
                                                 const LaunchSite &Site, const clang::Expr &Callee,
                                                 unsigned Written) {
  const clang::FunctionTemplateDecl *Template =
      Site.Child ? Site.Child->getDescribedFunctionTemplate() : nullptr;
  if (!Template || Written >= Template->getTemplateParameters()->size())
    return "";
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(&Callee);
  const clang::FunctionDecl *Launched =
      Ref ? llvm::dyn_cast<clang::FunctionDecl>(Ref->getDecl()) : nullptr;
  const clang::TemplateArgumentList *Specialized =
      Launched ? Launched->getTemplateSpecializationArgs() : nullptr;
  if (!Specialized)
    return refusal("the launch of '" + Site.ChildName +
                   "' leaves template arguments to deduction inside a template, where the "
                   "generated functions cannot name them: write the template arguments out");
  std::vector<std::string> Args;
  for (const clang::TemplateArgument &Arg : Specialized->asArray()) {
    if (Arg.getKind() == clang::TemplateArgument::Pack)
      return refusal("the launch of '" + Site.ChildName +
                     "' deduces a template parameter pack, which the generated functions "
                     "cannot name");
    Args.push_back(printed(Ctx, Arg));
  }
  return "<" + llvm::join(Args, ", ") + ">";
}

// Whether a declaration lives in a function body (`constexpr int kPer = 4;`,
// a local `using`): a generated function outside that body cannot name it.
bool isFunctionLocal(const clang::Decl *D) {
  return D && D->getDeclContext()->isFunctionOrMethod();
}

bool namesLocalType(clang::QualType T);

// `kPer`, or `Step::value` where Step is a local alias.
bool namesLocalDeclaration(const clang::Stmt *S) {
  if (!S)
    return false;
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S)) {
    if (isFunctionLocal(Ref->getDecl()))
      return true;
    for (const clang::NestedNameSpecifier *Q = Ref->getQualifier(); Q; Q = Q->getPrefix())
      if (const clang::Type *T = Q->getAsType(); T && namesLocalType(clang::QualType(T, 0)))
        return true;
  }
  for (const clang::Stmt *Child : S->children())
    if (namesLocalDeclaration(Child))
      return true;
  return false;
}

bool namesLocalType(clang::QualType T) {
  for (int Depth = 0; !T.isNull() && Depth < 8; ++Depth) {
    if (auto *Typedef = T->getAs<clang::TypedefType>())
      if (isFunctionLocal(Typedef->getDecl()))
        return true;
    if (isFunctionLocal(T->getAsTagDecl()))
      return true;
    if (T->isPointerType() || T->isReferenceType() || T->isArrayType())
      T = T->getPointeeOrArrayElementType()->getCanonicalTypeInternal();
    else
      return false;
  }
  return false;
}

// Whether the template arguments written at the launch name something
// local to the parent (`child<kPer>` with `constexpr int kPer` in the body).
bool writesLocalTemplateArgument(const clang::Expr &Callee) {
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(&Callee);
  if (!Ref)
    return false;
  for (const clang::TemplateArgumentLoc &Arg : Ref->template_arguments()) {
    const clang::TemplateArgument &A = Arg.getArgument();
    if (A.getKind() == clang::TemplateArgument::Expression && namesLocalDeclaration(A.getAsExpr()))
      return true;
    if (A.getKind() == clang::TemplateArgument::Type && namesLocalType(A.getAsType()))
      return true;
    if (clang::TypeSourceInfo *Info = Arg.getTypeSourceInfo())
      if (namesLocalType(Info->getType()))
        return true;
  }
  return false;
}

} // namespace

llvm::Expected<std::string> prefixedCallee(const clang::ASTContext &Ctx, const LaunchSite &Site,
                                           const std::string &Prefix, bool SpellDeduced) {
  const clang::Expr *Callee = launchedKernel(*Site.Call);
  std::optional<std::pair<FileRange, FileRange>> Ranges =
      calleeRanges(Ctx, *Callee, Site.ChildName);
  if (!Ranges)
    return refusal("the launched kernel's name comes from a macro");
  const auto &[Whole, Name] = *Ranges;
  std::string After = textOf(Ctx, {Name.End, Whole.End});
  unsigned Written = 0;
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
    Written = Ref->getNumTemplateArgs();
  else if (auto *ULE = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
    Written = ULE->getNumTemplateArgs();
  // Generated functions outside the parent cannot name the parent's locals:
  // the launched specialization's arguments are spelled out instead.
  bool LocalNames = writesLocalTemplateArgument(*Callee);
  if (SpellDeduced || LocalNames) {
    llvm::Expected<std::string> All =
        allTemplateArguments(Ctx, Site, *Callee, LocalNames ? 0 : Written);
    if (!All)
      return All.takeError();
    if (!All->empty())
      return textOf(Ctx, {Whole.Begin, Name.Begin}) + Prefix + Site.ChildName + *All;
  }
  llvm::Expected<std::string> Defaulted = defaultedArguments(Ctx, Site, *Callee, Written);
  if (!Defaulted)
    return Defaulted.takeError();
  if (!Defaulted->empty()) {
    // `child<float>` -> `child<float, (int)128>`; `child` -> `child<float, (int)128>`.
    if (Written == 0)
      After = "<" + Defaulted->substr(2) + ">" + After;
    else if (size_t Close = After.rfind('>'); Close != std::string::npos)
      After.insert(Close, *Defaulted);
  }
  return textOf(Ctx, {Whole.Begin, Name.Begin}) + Prefix + Site.ChildName + After;
}

std::string writtenQualifier(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  std::optional<std::pair<FileRange, FileRange>> Ranges =
      calleeRanges(Ctx, *launchedKernel(*Site.Call), Site.ChildName);
  return Ranges ? textOf(Ctx, {Ranges->first.Begin, Ranges->second.Begin}) : "";
}

std::string launchTemplateArguments(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  llvm::Expected<std::string> Callee = prefixedCallee(Ctx, Site, "");
  if (!Callee) {
    llvm::consumeError(Callee.takeError());
    return "";
  }
  size_t Angle = Callee->find('<');
  return Angle == std::string::npos ? "" : Callee->substr(Angle);
}

unsigned definitionStart(const clang::ASTContext &Ctx, const clang::FunctionDecl &F) {
  const clang::Decl *D = &F;
  if (const clang::FunctionTemplateDecl *T = F.getDescribedFunctionTemplate())
    D = T;
  std::optional<FileRange> R = spelledRange(Ctx, D->getSourceRange());
  return R ? R->Begin : 0;
}

} // namespace launchopt

#include "KernelCopy.h"

#include "Refusal.h"
#include "Analysis/InstructionEstimate.h"
#include "Analysis/LinearExit.h"
#include "Analysis/UniformAtomics.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>

namespace launchopt {

namespace {

// `T *a` for a named parameter, `int <UnnamedParameterPrefix>1` for an
// unnamed one, without a default argument.
std::optional<std::string> writtenParameterText(const clang::ASTContext &Ctx,
                                                const clang::ParmVarDecl &P, unsigned Index,
                                                std::string &Name, unsigned &NameOffset,
                                                clang::FileID In) {
  clang::SourceRange Range = P.getSourceRange();
  if (P.hasDefaultArg())
    Range.setEnd(P.getTypeSourceInfo()->getTypeLoc().getEndLoc());
  std::optional<FileRange> R = spelledRange(Ctx, Range, In);
  if (!R)
    return std::nullopt;
  std::string Text = textOf(Ctx, *R);
  Name = P.getName().str();
  if (!Name.empty()) {
    if (P.hasDefaultArg()) {
      // The type's end stops before the name: put it back.
      std::optional<FileRange> NameRange = spelledRange(Ctx, P.getLocation(), In);
      if (!NameRange)
        return std::nullopt;
      Text = textOf(Ctx, {R->Begin, NameRange->End, In});
    }
    return Text;
  }
  Name = generated::UnnamedParameterPrefix + std::to_string(Index);
  std::optional<FileRange> At = spelledRange(Ctx, P.getLocation(), In);
  if (!At || At->Begin < R->Begin || At->Begin > R->End) {
    NameOffset = R->End;
    return Text + " " + Name;
  }
  NameOffset = At->Begin;
  unsigned Cut = At->Begin - R->Begin;
  return Text.substr(0, Cut) + " " + Name + " " + Text.substr(Cut);
}

// The parameter as the copies declare it: `__grid_constant__` is only
// allowed on a kernel's parameters, and most copies are device functions
// (the parameter is const either way).
std::optional<std::string> parameterText(const clang::ASTContext &Ctx, const clang::ParmVarDecl &P,
                                         unsigned Index, std::string &Name, unsigned &NameOffset,
                                         clang::FileID In) {
  std::optional<std::string> Text = writtenParameterText(Ctx, P, Index, Name, NameOffset, In);
  if (!Text)
    return Text;
  const llvm::StringRef Annotation = "__grid_constant__";
  for (size_t At = Text->find(Annotation.str()); At != std::string::npos;
       At = Text->find(Annotation.str(), At)) {
    size_t End = At + Annotation.size();
    while (End < Text->size() && (*Text)[End] == ' ')
      ++End;
    Text->erase(At, End - At);
  }
  return Text;
}

std::string joinTrailing(const std::vector<std::string> &Items, bool Trailing) {
  std::string S = llvm::join(Items, ", ");
  return Trailing && !Items.empty() ? S + ", " : S;
}

} // namespace

std::string KernelCopy::parameters(bool Trailing) const {
  return joinTrailing(ParamTexts, Trailing);
}

std::string KernelCopy::arguments(bool Trailing) const {
  return joinTrailing(ParamNames, Trailing);
}

std::string KernelCopy::body(const clang::ASTContext &Ctx,
                             const std::vector<SourceEdit> &Edits) const {
  SourceEdits Inside;
  for (const SourceEdit &E : Edits)
    if (E.Offset >= Body.Begin && E.Offset + E.Length <= Body.End)
      Inside.replace(E.Offset - Body.Begin, E.Length, E.Text);
  std::string Text = textOf(Ctx, Body);
  llvm::Expected<std::string> Edited = Inside.apply(Text);
  if (!Edited) {
    llvm::consumeError(Edited.takeError());
    return Text;
  }
  return *Edited;
}

namespace {
// The kernel's combinable atomics as text; none unless every one reads as
// written (the serial copy combines all of them or none).
void readAccumulations(const clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                       clang::FileID In, KernelCopy &Copy) {
  for (const UniformAtomic &A : uniformAtomics(Kernel)) {
    std::optional<FileRange> Call = writtenRange(Ctx, A.Call->getSourceRange(), In);
    std::optional<FileRange> Address = writtenRange(Ctx, A.Call->getArg(0)->getSourceRange(), In);
    std::optional<FileRange> Value = writtenRange(Ctx, A.Call->getArg(1)->getSourceRange(), In);
    if (!Call || !Address || !Value) {
      Copy.Accumulations.clear();
      return;
    }
    Copy.Accumulations.push_back(
        {*Call, A.Op, A.Scope, textOf(Ctx, *Address), textOf(Ctx, *Value)});
  }
}

// The kernel's __launch_bounds__ with its arguments as written; empty when
// it has none or an argument is not written in the file. The arguments are
// those of the CUDA headers' macro: their text is where they are spelled.
std::string launchBoundsOf(const clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                           clang::FileID In) {
  const auto *Bounds = Kernel.getAttr<clang::CUDALaunchBoundsAttr>();
  if (!Bounds)
    return "";
  const clang::SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::string> Arguments;
  for (const clang::Expr *E :
       {Bounds->getMaxThreads(), Bounds->getMinBlocks(), Bounds->getMaxBlocks()}) {
    if (!E)
      break;
    clang::SourceRange Spelled(SM.getSpellingLoc(E->getBeginLoc()),
                               SM.getSpellingLoc(E->getEndLoc()));
    std::optional<FileRange> At = writtenRange(Ctx, Spelled, In);
    if (!At)
      return "";
    Arguments.push_back(textOf(Ctx, *At));
  }
  return "__launch_bounds__(" + llvm::join(Arguments, ", ") + ") ";
}

// The kernel's exit on its linear x index as text, when all of it reads as
// written (not through a macro).
void readLinearExit(const clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                    KernelCopy &Copy) {
  std::optional<LinearExit> Exit = findLinearExit(Kernel);
  if (!Exit)
    return;
  std::string Declarations;
  std::vector<std::string> Names;
  for (const clang::DeclStmt *D : Exit->Leading) {
    std::string Text = readableText(Ctx, D->getSourceRange());
    if (Text.empty())
      return;
    Declarations += "  " + Text + "\n";
    for (const clang::Decl *Var : D->decls())
      Names.push_back(llvm::cast<clang::VarDecl>(Var)->getNameAsString());
  }
  std::string Comparison = readableText(Ctx, Exit->Comparison->getSourceRange());
  if (Comparison.empty())
    return;
  Copy.LinearExit.Declarations = Declarations;
  Copy.LinearExit.Names = Names;
  Copy.LinearExit.Condition =
      Exit->ExitsWhenFalse ? "!(" + Comparison + ")" : "(" + Comparison + ")";
}
// `template <typename T, int B>` from `template <typename T, int B = 128>`.
llvm::Expected<std::string>
templateHeaderWithoutDefaults(const clang::ASTContext &Ctx,
                              const clang::TemplateParameterList &Params, clang::FileID In) {
  std::optional<FileRange> Whole = spelledRange(Ctx, Params.getSourceRange(), In);
  if (!Whole)
    return refusal("the child's template parameters come from a macro");
  std::vector<std::string> Parameters;
  bool Defaults = false;
  for (const clang::NamedDecl *P : Params) {
    // A default given by an earlier declaration is not written here.
    clang::SourceLocation Default;
    if (auto *T = llvm::dyn_cast<clang::TemplateTypeParmDecl>(P);
        T && T->hasDefaultArgument() && !T->defaultArgumentWasInherited())
      Default = T->getDefaultArgumentLoc();
    else if (auto *N = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(P);
             N && N->hasDefaultArgument() && !N->defaultArgumentWasInherited())
      Default = N->getDefaultArgumentLoc();
    else if (auto *TT = llvm::dyn_cast<clang::TemplateTemplateParmDecl>(P);
             TT && TT->hasDefaultArgument() && !TT->defaultArgumentWasInherited())
      Default = TT->getDefaultArgument().getLocation();
    std::optional<FileRange> Own = spelledRange(Ctx, P->getSourceRange(), In);
    std::optional<FileRange> From =
        Default.isValid() ? writtenRange(Ctx, Default) : std::optional<FileRange>();
    if (!Own || (Default.isValid() && !From))
      return refusal("the child's template parameters come from a macro");
    std::string Text = textOf(Ctx, {Own->Begin, From ? From->Begin : Own->End});
    if (From) {
      Defaults = true;
      llvm::StringRef Kept = llvm::StringRef(Text).rtrim();
      Kept.consume_back("=");
      Text = Kept.rtrim().str();
    }
    Parameters.push_back(Text);
  }
  if (!Defaults)
    return textOf(Ctx, *Whole);
  return "template <" + llvm::join(Parameters, ", ") + ">";
}

// The class that declares the kernel (or its template) a friend, if any.
const clang::CXXRecordDecl *befriendingClass(const clang::FunctionDecl &Kernel) {
  auto ClassOf = [](const clang::Decl *D) -> const clang::CXXRecordDecl * {
    if (D->getFriendObjectKind() == clang::Decl::FOK_None)
      return nullptr;
    return llvm::dyn_cast<clang::CXXRecordDecl>(D->getLexicalDeclContext());
  };
  for (const clang::FunctionDecl *D : Kernel.redecls())
    if (const clang::CXXRecordDecl *Class = ClassOf(D))
      return Class;
  const clang::FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate();
  if (!Template)
    Template = Kernel.getPrimaryTemplate();
  if (Template)
    for (const clang::RedeclarableTemplateDecl *D : Template->redecls())
      if (const clang::CXXRecordDecl *Class = ClassOf(D))
        return Class;
  return nullptr;
}

} // namespace

llvm::Expected<KernelCopy> readKernel(const clang::ASTContext &Ctx,
                                      const clang::FunctionDecl &Kernel, clang::FileID In,
                                      bool Member) {
  if (llvm::isa<clang::CXXMethodDecl>(Kernel) && !Member)
    return refusal("the child kernel is a class member");
  if (Kernel.isVariadic())
    return refusal("the child kernel is variadic");
  if (const clang::CXXRecordDecl *Class = befriendingClass(Kernel))
    return refusal("the kernel '" + Kernel.getNameAsString() + "' is a friend of '" +
                   Class->getNameAsString() +
                   "': the copies launchopt writes would not be, and could not read what it "
                   "reads of that class");
  const clang::FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate();
  std::optional<FileRange> Whole =
      spelledRange(Ctx, Template ? Template->getSourceRange() : Kernel.getSourceRange(), In);
  std::optional<FileRange> Body =
      Kernel.getBody() ? writtenRange(Ctx, Kernel.getBody()->getSourceRange(), In) : std::nullopt;
  if (!Whole || !Body) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    clang::SourceLocation At = Kernel.getLocation();
    if (!In.isValid() && At.isFileID() && !SM.isInMainFile(At))
      return refusal("the child kernel is defined in the included file '" +
                     SM.getFilename(At).str() +
                     "', whose kernels only --threshold, --coarsen, --aggregate, --spawn and "
                     "--remove-launches=T4 copy: define "
                     "it in a file launchopt is given");
    return refusal("the child kernel is not written in this file outside macros");
  }
  KernelCopy Copy;
  Copy.Name = Kernel.getNameAsString();
  Copy.Whole = *Whole;
  Copy.Body = *Body;
  if (Template) {
    const clang::TemplateParameterList *Params = Template->getTemplateParameters();
    if (Params->hasAssociatedConstraints())
      return refusal("the kernel's template parameters have constraints");
    // Generated templates repeat the parameters without their defaults (a
    // prototype and its definition may not both give them); the rewritten
    // launches name every argument (prefixedCallee).
    llvm::Expected<std::string> Header = templateHeaderWithoutDefaults(Ctx, *Params, In);
    if (!Header)
      return Header.takeError();
    Copy.TemplateHeader = *Header + "\n";
    std::vector<std::string> Names;
    for (const clang::NamedDecl *P : *Params) {
      if (P->getName().empty())
        return refusal("the child has an unnamed template parameter");
      Names.push_back(P->getName().str() + (P->isParameterPack() ? "..." : ""));
    }
    Copy.TemplateArgs = "<" + llvm::join(Names, ", ") + ">";
  }
  for (unsigned I = 0; I < Kernel.getNumParams(); ++I) {
    std::string Name;
    unsigned NameOffset = 0;
    std::optional<std::string> Text =
        parameterText(Ctx, *Kernel.getParamDecl(I), I, Name, NameOffset, In);
    if (!Text)
      return refusal("parameter " + std::to_string(I + 1) + " of the child comes from a macro");
    if (Kernel.getParamDecl(I)->getName().empty())
      Copy.UnnamedParameterNames.push_back({NameOffset, Name});
    Copy.ParamTexts.push_back(*Text);
    Copy.ParamNames.push_back(Name + (Kernel.getParamDecl(I)->isParameterPack() ? "..." : ""));
  }
  readLinearExit(Ctx, Kernel, Copy);
  readAccumulations(Ctx, Kernel, In, Copy);
  Copy.LaunchBounds = launchBoundsOf(Ctx, Kernel, In);
  if (std::optional<double> Instructions = estimatedInstructions(Kernel))
    Copy.InstructionsPerThread = static_cast<unsigned>(std::ceil(std::max(*Instructions, 1.0)));
  return std::move(Copy);
}

llvm::Expected<KernelCopy> readKernelDeclaration(const clang::ASTContext &Ctx,
                                                 const clang::FunctionDecl &Kernel) {
  if (llvm::Error E = exportableChild(Kernel))
    return std::move(E);
  if (Kernel.isVariadic())
    return refusal("the child kernel is variadic");
  clang::PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  KernelCopy Copy;
  Copy.Name = Kernel.getNameAsString();
  for (unsigned I = 0; I < Kernel.getNumParams(); ++I) {
    std::string Name = generated::UnnamedParameterPrefix + std::to_string(I);
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    // Without the top-level const that one declaration may write and another
    // not (it is no part of the function's type): every file of the program
    // reads the same text (the argument records aggregation shares).
    Kernel.getParamDecl(I)->getType().getUnqualifiedType().print(OS, Policy, Name);
    Copy.ParamTexts.push_back(OS.str());
    Copy.ParamNames.push_back(Name);
  }
  return std::move(Copy);
}

llvm::Error exportableChild(const clang::FunctionDecl &Kernel) {
  if (Kernel.getDescribedFunctionTemplate() || Kernel.getPrimaryTemplate())
    return refusal("the child is a template kernel: copies of it could not be instantiated in "
                   "another file");
  if (llvm::isa<clang::CXXMethodDecl>(Kernel))
    return refusal("the child kernel is a class member");
  return llvm::Error::success();
}

void nameUnnamedParameters(const KernelCopy &K, SourceEdits &Edits) {
  for (const auto &[Offset, Name] : K.UnnamedParameterNames)
    Edits.insert(Offset, " " + Name);
}

std::string passedBuiltinParameters() {
  return "const uint3 " + generated::passedBuiltin("blockIdx") + ", const uint3 " +
         generated::passedBuiltin("threadIdx") + ",\n    const dim3 " +
         generated::passedBuiltin("blockDim") + ", const dim3 " +
         generated::passedBuiltin("gridDim");
}

std::string shadowingPrologue(const std::vector<std::string> &Names) {
  std::string S;
  for (const std::string &N : Names) {
    const char *Type = (N == "blockIdx" || N == "threadIdx") ? "uint3" : "dim3";
    S += std::string("  const ") + Type + " " + N + " = " + generated::passedBuiltin(N) + ";\n";
  }
  S += " ";
  for (const std::string &N : Names)
    S += " (void)" + N + ";";
  return S + "\n";
}

} // namespace launchopt

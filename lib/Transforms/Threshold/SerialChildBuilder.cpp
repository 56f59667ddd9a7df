#include "SerialChildBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "clang/AST/DeclTemplate.h"

namespace launchopt {

std::string serialNameFor(llvm::StringRef KernelName) {
  return "__lo_serial_" + KernelName.str();
}

namespace {

std::string threadNameFor(llvm::StringRef KernelName) {
  return "__lo_thread_" + KernelName.str();
}

// `T *a` for a named parameter, `int __lo_p1` for an unnamed one, without a
// default argument.
std::optional<std::string> parameterText(const clang::ASTContext &Ctx,
                                         const clang::ParmVarDecl &P, unsigned Index,
                                         std::string &Name) {
  clang::SourceRange Range = P.getSourceRange();
  if (P.hasDefaultArg())
    Range.setEnd(P.getTypeSourceInfo()->getTypeLoc().getEndLoc());
  std::optional<FileRange> R = spelledRange(Ctx, Range);
  if (!R)
    return std::nullopt;
  std::string Text = textOf(Ctx, *R);
  Name = P.getName().str();
  if (!Name.empty()) {
    if (P.hasDefaultArg()) {
      // The type's end stops before the name: put it back.
      std::optional<FileRange> NameRange = spelledRange(Ctx, P.getLocation());
      if (!NameRange)
        return std::nullopt;
      Text = textOf(Ctx, {R->Begin, NameRange->End});
    }
    return Text;
  }
  Name = "__lo_p" + std::to_string(Index);
  std::optional<FileRange> At = spelledRange(Ctx, P.getLocation());
  if (!At || At->Begin < R->Begin || At->Begin > R->End)
    return Text + " " + Name;
  unsigned Cut = At->Begin - R->Begin;
  return Text.substr(0, Cut) + " " + Name + " " + Text.substr(Cut);
}

} // namespace

// The body text with the edits that fall inside it applied.
static std::string editedBody(const clang::ASTContext &Ctx, FileRange Body,
                              const std::vector<SourceEdit> &BodyEdits) {
  SourceEdits Inside;
  for (const SourceEdit &E : BodyEdits)
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

SerialChildOrReason buildSerialChild(const clang::ASTContext &Ctx,
                                     const clang::FunctionDecl &Kernel,
                                     const std::vector<SourceEdit> &BodyEdits) {
  SerialChildOrReason Result;
  if (llvm::isa<clang::CXXMethodDecl>(Kernel)) {
    Result.Reason = "the child kernel is a class member";
    return Result;
  }
  if (Kernel.isVariadic()) {
    Result.Reason = "the child kernel is variadic";
    return Result;
  }
  const clang::FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate();
  std::optional<FileRange> Whole =
      spelledRange(Ctx, Template ? Template->getSourceRange() : Kernel.getSourceRange());
  std::optional<FileRange> Body = writtenRange(Ctx, Kernel.getBody()->getSourceRange());
  if (!Whole || !Body) {
    Result.Reason = "the child kernel is not written in this file outside macros";
    return Result;
  }

  std::string TemplateHeader, TemplateArgs;
  if (Template) {
    const clang::TemplateParameterList *Params = Template->getTemplateParameters();
    std::optional<FileRange> Header = spelledRange(Ctx, Params->getSourceRange());
    if (!Header) {
      Result.Reason = "the child's template parameters come from a macro";
      return Result;
    }
    TemplateHeader = textOf(Ctx, *Header) + "\n";
    std::vector<std::string> Names;
    for (const clang::NamedDecl *P : *Params) {
      if (P->getName().empty()) {
        Result.Reason = "the child has an unnamed template parameter";
        return Result;
      }
      Names.push_back(P->getName().str() + (P->isParameterPack() ? "..." : ""));
    }
    TemplateArgs = "<" + llvm::join(Names, ", ") + ">";
  }

  std::vector<std::string> ParamTexts, ParamNames;
  for (unsigned I = 0; I < Kernel.getNumParams(); ++I) {
    std::string Name;
    std::optional<std::string> Text = parameterText(Ctx, *Kernel.getParamDecl(I), I, Name);
    if (!Text) {
      Result.Reason = "parameter " + std::to_string(I + 1) + " of the child comes from a macro";
      return Result;
    }
    ParamTexts.push_back(*Text);
    ParamNames.push_back(Name + (Kernel.getParamDecl(I)->isParameterPack() ? "..." : ""));
  }

  std::string KernelName = Kernel.getNameAsString();
  std::string ThreadName = threadNameFor(KernelName);
  SerialChild Serial;
  Serial.SerialName = serialNameFor(KernelName);
  std::string Params = llvm::join(ParamTexts, ", ");
  std::string Sep = ParamTexts.empty() ? "" : ", ";
  std::string Args = llvm::join(ParamNames, ", ");

  std::string SerialSignature = TemplateHeader + "static __device__ void " +
                                Serial.SerialName + "(" + Params + Sep +
                                "const dim3 __lo_gridDim, const dim3 __lo_blockDim)";
  Serial.Prototype = SerialSignature + ";\n";

  std::string &D = Serial.Definitions;
  D += "\n\n// launchopt: one thread of '" + KernelName +
       "', run by a parent thread; the locals below\n"
       "// shadow the built-in index variables with that thread's values.\n";
  D += TemplateHeader + "static __device__ void " + ThreadName + "(" + Params + Sep +
       "const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,\n"
       "    const dim3 __lo_blockDim, const dim3 __lo_gridDim)\n{\n"
       "  const uint3 blockIdx = __lo_blockIdx;\n"
       "  const uint3 threadIdx = __lo_threadIdx;\n"
       "  const dim3 blockDim = __lo_blockDim;\n"
       "  const dim3 gridDim = __lo_gridDim;\n"
       "  (void)blockIdx; (void)threadIdx; (void)blockDim; (void)gridDim;\n  ";
  D += editedBody(Ctx, *Body, BodyEdits);
  D += "\n}\n\n";
  D += "// launchopt: every thread of a '" + KernelName +
       "' grid, one after another (serial version).\n";
  D += SerialSignature + "\n{\n";
  D += "  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)\n"
       "    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by)\n"
       "      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x; ++__lo_bx)\n"
       "        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)\n"
       "          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)\n"
       "            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx)\n";
  D += "              " + ThreadName + TemplateArgs + "(" + Args + Sep +
       "make_uint3(__lo_bx, __lo_by, __lo_bz),\n"
       "                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);\n}";
  Serial.InsertOffset = Whole->End;
  Result.Serial = std::move(Serial);
  return Result;
}

} // namespace launchopt

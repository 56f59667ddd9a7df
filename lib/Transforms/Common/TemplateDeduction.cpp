#include "TemplateDeduction.h"

#include "clang/AST/DeclTemplate.h"
#include <optional>

namespace launchopt {

namespace {

// What Param binds template parameter Index to when an argument of type
// Arg is passed to it: Arg itself for T, its pointee for T *, with the
// qualifiers Param writes removed.
std::optional<clang::QualType> match(clang::QualType Param, clang::QualType Arg, unsigned Index) {
  Param = Param.getNonReferenceType();
  Arg = Arg.getNonReferenceType();
  if (auto *T = Param->getAs<clang::TemplateTypeParmType>()) {
    if (T->getDepth() != 0 || T->getIndex() != Index)
      return std::nullopt;
    clang::Qualifiers Extra = Arg.getQualifiers();
    Extra.removeCVRQualifiers(Param.getCVRQualifiers());
    return clang::QualType(Arg.getTypePtr(), Extra.getCVRQualifiers());
  }
  if (Param->isPointerType() && (Arg->isPointerType() || Arg->isArrayType())) {
    clang::QualType ArgPointee = Arg->isArrayType()
                                     ? clang::QualType(Arg->getPointeeOrArrayElementType(), 0)
                                     : Arg->getPointeeType();
    return match(Param->getPointeeType(), ArgPointee, Index);
  }
  return std::nullopt;
}

// Whether Type may name template parameter Index: as itself, under
// pointers, references, arrays and qualifiers, or in any other dependent
// type (which is not looked into).
bool mayName(clang::QualType Type, unsigned Index) {
  if (!Type->isDependentType())
    return false;
  if (auto *T = Type->getAs<clang::TemplateTypeParmType>())
    return T->getDepth() == 0 && T->getIndex() == Index;
  if (Type->isPointerType() || Type->isReferenceType())
    return mayName(Type->getPointeeType(), Index);
  return true;
}

} // namespace

bool deducibleFromParameters(const clang::FunctionTemplateDecl &Child, unsigned Index) {
  const clang::FunctionDecl *Pattern = Child.getTemplatedDecl();
  for (const clang::ParmVarDecl *P : Pattern->parameters())
    if (mayName(P->getType(), Index))
      return true;
  return false;
}

std::string deducedInTemplate(const clang::ASTContext &Ctx, const clang::CallExpr &Launch,
                              const clang::FunctionTemplateDecl &Child, unsigned Index) {
  std::vector<const clang::Expr *> Arguments(Launch.arg_begin(), Launch.arg_end());
  return deducedFromArguments(Ctx, Arguments, Child, Index);
}

std::string deducedFromArguments(const clang::ASTContext &Ctx,
                                 llvm::ArrayRef<const clang::Expr *> Arguments,
                                 const clang::FunctionTemplateDecl &Child, unsigned Index) {
  const clang::FunctionDecl *Pattern = Child.getTemplatedDecl();
  auto *Param =
      llvm::dyn_cast<clang::TemplateTypeParmDecl>(Child.getTemplateParameters()->getParam(Index));
  if (!Param || Param->isParameterPack())
    return "";
  std::optional<clang::QualType> Found;
  for (unsigned I = 0; I < Pattern->getNumParams() && I < Arguments.size(); ++I) {
    clang::QualType Arg = Arguments[I]->IgnoreImpCasts()->getType();
    // An expression of a dependent type Clang could not name yet (`a + b`
    // of template operands) shows nothing.
    if (Arg.isNull() || Arg->isSpecificBuiltinType(clang::BuiltinType::Dependent))
      continue;
    clang::QualType Type = Pattern->getParamDecl(I)->getType();
    // A parameter taken by value drops the argument's own const.
    if (!Type->isReferenceType())
      Arg = Arg.getUnqualifiedType();
    std::optional<clang::QualType> Bound = match(Type, Arg, Index);
    if (!Bound)
      continue;
    if (Found && !Ctx.hasSameType(*Found, *Bound))
      return ""; // the arguments disagree: leave it to the compiler's refusal
    Found = Bound;
  }
  if (!Found)
    return "";
  std::string Text = Found->getAsString(Ctx.getPrintingPolicy());
  // Types the generated code cannot spell.
  if (Text.find("(anonymous") != std::string::npos || Text.find("(lambda") != std::string::npos ||
      Text.find("(unnamed") != std::string::npos)
    return "";
  return Text;
}

} // namespace launchopt

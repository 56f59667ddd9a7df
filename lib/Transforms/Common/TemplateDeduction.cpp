#include "TemplateDeduction.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
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

// The type an argument shows for deduction. Clang gives pointer arithmetic
// on template operands (`acc + r`, `&out[i]`) no type yet; it is the
// pointer's.
clang::QualType shownType(const clang::Expr *E, int Depth = 0) {
  E = E->IgnoreParenImpCasts();
  clang::QualType Type = E->getType();
  if (!Type.isNull() && !Type->isSpecificBuiltinType(clang::BuiltinType::Dependent))
    return Type;
  if (Depth > 8)
    return {};
  // `a + b` and `a - b`: an operator of the language, or one that overloads
  // may still take (a header's operator+ in sight makes Clang wait).
  const clang::Expr *Lhs = nullptr, *Rhs = nullptr;
  bool Plus = false;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
      B && (B->getOpcode() == clang::BO_Add || B->getOpcode() == clang::BO_Sub)) {
    Lhs = B->getLHS();
    Rhs = B->getRHS();
    Plus = B->getOpcode() == clang::BO_Add;
  } else if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E);
             Op && Op->getNumArgs() == 2 &&
             (Op->getOperator() == clang::OO_Plus || Op->getOperator() == clang::OO_Minus)) {
    Lhs = Op->getArg(0);
    Rhs = Op->getArg(1);
    Plus = Op->getOperator() == clang::OO_Plus;
  }
  if (Lhs && Rhs) {
    clang::QualType Left = shownType(Lhs, Depth + 1);
    clang::QualType Right = shownType(Rhs, Depth + 1);
    auto IsPointer = [](clang::QualType T) { return !T.isNull() && T->isPointerType(); };
    auto IsOffset = [](clang::QualType T) {
      return !T.isNull() && T->isIntegralOrEnumerationType();
    };
    if (IsPointer(Left) && IsOffset(Right))
      return Left;
    if (Plus && IsOffset(Left) && IsPointer(Right))
      return Right;
    return {};
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->getOpcode() == clang::UO_AddrOf)
    if (const auto *Element =
            llvm::dyn_cast<clang::ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())) {
      clang::QualType Base = shownType(Element->getBase(), Depth + 1);
      if (!Base.isNull() && Base->isPointerType())
        return Base;
    }
  return {};
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
    // An expression of a dependent type Clang could not name yet (`a + b`
    // of template operands) shows nothing, but for pointer arithmetic.
    clang::QualType Arg = shownType(Arguments[I]);
    if (Arg.isNull())
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

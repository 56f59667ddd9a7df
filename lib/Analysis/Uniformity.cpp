#include "Uniformity.h"

#include "KernelFeatures.h"
#include "VariableWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>

namespace launchopt {

namespace {

class UniformityCheck {
public:
  UniformityCheck(clang::ASTContext &Ctx, const clang::FunctionDecl &Parent, UniformityScope Scope,
                  const std::vector<bool> *ParametersPerGrid)
      : Ctx(Ctx), Parent(Parent), Scope(Scope),
        ParametersPerGrid(Scope == UniformityScope::Grid ? ParametersPerGrid : nullptr) {}

  bool check(const clang::Expr *E, int Depth = 0) {
    if (!E || Depth > 32)
      return false;
    E = E->IgnoreParens();
    if (!E->isValueDependent() && E->isIntegerConstantExpr(Ctx))
      return true;
    if (llvm::isa<clang::IntegerLiteral, clang::FloatingLiteral, clang::CharacterLiteral,
                  clang::CXXBoolLiteralExpr, clang::CXXNullPtrLiteralExpr, clang::StringLiteral>(E))
      return true;
    if (auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
      // Reading through a pointer is a memory access, not a conversion.
      if (Cast->getCastKind() == clang::CK_LValueToRValue &&
          !isVariableRead(Cast->getSubExpr()->IgnoreParens()))
        return false;
      return check(Cast->getSubExpr(), Depth + 1);
    }
    if (auto *Pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
      return builtinIsUniform(Pseudo->getSyntacticForm());
    if (auto *B = llvm::dyn_cast<clang::BinaryOperator>(E))
      return !B->isAssignmentOp() && B->getOpcode() != clang::BO_Comma &&
             check(B->getLHS(), Depth + 1) && check(B->getRHS(), Depth + 1);
    if (auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
      if (U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_Deref)
        return false;
      if (U->getOpcode() == clang::UO_AddrOf)
        return addressIsUniform(U->getSubExpr()->IgnoreParenImpCasts());
      return check(U->getSubExpr(), Depth + 1);
    }
    if (auto *C = llvm::dyn_cast<clang::ConditionalOperator>(E))
      return check(C->getCond(), Depth + 1) && check(C->getTrueExpr(), Depth + 1) &&
             check(C->getFalseExpr(), Depth + 1);
    // Compile-time values a template writes: its non-type parameters,
    // sizeof of a dependent type, a member of a dependent type (T::kBlock).
    if (llvm::isa<clang::SubstNonTypeTemplateParmExpr, clang::UnaryExprOrTypeTraitExpr,
                  clang::SizeOfPackExpr, clang::DependentScopeDeclRefExpr>(E))
      return true;
    if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
      return llvm::isa<clang::NonTypeTemplateParmDecl>(Ref->getDecl()) ||
             variableIsUniform(Ref->getDecl(), Depth);
    // A member of a variable (`node.end`), or an element of an array held
    // in one (`quad.child[blockIdx.x]`): no memory read through a pointer.
    if (auto *M = llvm::dyn_cast<clang::MemberExpr>(E))
      return !M->isArrow() && isVariableRead(M->getBase()) && check(M->getBase(), Depth + 1);
    if (auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      const clang::Expr *Array = arrayVariable(A);
      return Array && check(Array, Depth + 1) && check(A->getIdx(), Depth + 1);
    }
    if (auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
      const clang::CXXConstructorDecl *Constructor = C->getConstructor();
      // A copy of such a value (a struct local initialised from one).
      if (C->getNumArgs() == 1 && Constructor->isCopyOrMoveConstructor())
        return Constructor->isTrivial() && isVariableRead(C->getArg(0)->IgnoreParens()) &&
               check(C->getArg(0), Depth + 1);
      // A value built from such values by a constexpr constructor of
      // values (`dim3(256)`, `dim3(n, 2)`), which reads nothing else.
      return Constructor->isConstexpr() &&
             std::all_of(C->arg_begin(), C->arg_end(), [&](const clang::Expr *Arg) {
               return !Arg->getType()->isPointerType() && !Arg->isGLValue() &&
                      check(Arg, Depth + 1);
             });
    }
    if (auto *Default = llvm::dyn_cast<clang::CXXDefaultArgExpr>(E))
      return check(Default->getExpr(), Depth + 1);
    if (auto *Temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
      return check(Temporary->getSubExpr(), Depth + 1);
    return false;
  }

private:
  // An lvalue that names variables only (`n`, `c ? n : m`): reading it is
  // not a memory access through a pointer.
  static bool isVariableRead(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto *C = llvm::dyn_cast<clang::ConditionalOperator>(E))
      return isVariableRead(C->getTrueExpr()) && isVariableRead(C->getFalseExpr());
    if (auto *M = llvm::dyn_cast<clang::MemberExpr>(E))
      return !M->isArrow() && isVariableRead(M->getBase());
    if (auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
      return arrayVariable(A) != nullptr;
    return llvm::isa<clang::DeclRefExpr>(E);
  }

  // The array variable (or member) an element is read from, when the base
  // is an array rather than a pointer.
  static const clang::Expr *arrayVariable(const clang::ArraySubscriptExpr *A) {
    auto *Decay = llvm::dyn_cast<clang::ImplicitCastExpr>(A->getBase()->IgnoreParens());
    if (!Decay || Decay->getCastKind() != clang::CK_ArrayToPointerDecay)
      return nullptr;
    const clang::Expr *Array = Decay->getSubExpr()->IgnoreParens();
    return isVariableRead(Array) ? Array : nullptr;
  }

  // `&array` of a parameter or global is the same for every thread.
  bool addressIsUniform(const clang::Expr *E) {
    auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
    auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    return Var && Var->hasGlobalStorage() && !Var->isStaticLocal();
  }

  bool variableIsUniform(const clang::ValueDecl *D, int Depth) {
    // A __device__ function's parameters are what each calling thread
    // passes; a kernel's are the launch's.
    if (auto *Param = llvm::dyn_cast<clang::ParmVarDecl>(D))
      return Param->getDeclContext() == &Parent && Parent.hasAttr<clang::CUDAGlobalAttr>() &&
             !isWrittenIn(&Parent, Param) &&
             (!ParametersPerGrid || (Param->getFunctionScopeIndex() < ParametersPerGrid->size() &&
                                     (*ParametersPerGrid)[Param->getFunctionScopeIndex()]));
    auto *Var = llvm::dyn_cast<clang::VarDecl>(D);
    if (!Var)
      return llvm::isa<clang::EnumConstantDecl>(D);
    if (Var->hasGlobalStorage())
      return Var->getType().isConstQualified() || Var->hasAttr<clang::CUDAConstantAttr>();
    if (!Var->isLocalVarDecl() || !Var->hasInit() || isWrittenIn(&Parent, Var))
      return false;
    return check(Var->getInit(), Depth + 1);
  }

  // blockIdx.x and friends: the built-in variable decides.
  bool builtinIsUniform(const clang::Expr *Syntactic) {
    auto *Property = llvm::dyn_cast<clang::MSPropertyRefExpr>(Syntactic);
    if (!Property)
      return false;
    const clang::DeclRefExpr *Ref = builtinIndexBase(*Property);
    if (!Ref)
      return false;
    llvm::StringRef Name = Ref->getDecl()->getName();
    if (Name == "gridDim" || Name == "blockDim")
      return !ParametersPerGrid;
    return Name == "blockIdx" && Scope != UniformityScope::Grid;
  }

  clang::ASTContext &Ctx;
  const clang::FunctionDecl &Parent;
  UniformityScope Scope;
  // Set when the scope may span several launches of Parent.
  const std::vector<bool> *ParametersPerGrid;
};

} // namespace

bool isUniform(clang::ASTContext &Ctx, const clang::Expr &Value, const clang::FunctionDecl &Parent,
               UniformityScope Scope, const std::vector<bool> *ParametersPerGrid) {
  return UniformityCheck(Ctx, Parent, Scope, ParametersPerGrid).check(&Value);
}

} // namespace launchopt

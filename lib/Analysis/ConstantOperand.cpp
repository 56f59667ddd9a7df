#include "ConstantOperand.h"

#include <map>

#include "Analysis/LaunchSites.h"
#include "Analysis/VariableWrites.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace launchopt {

namespace {

// A const variable, or a local never written after its initialisation, as
// real code names its launch shape (`int threads = 256;`,
// `dim3 block(16, 16);`): the expression it was initialised with. Depth
// bounds a chain of such variables.
const clang::Expr *definingExpr(const clang::Expr *E, unsigned Depth = 0) {
  E = stripConstruction(E);
  // A copy construction (`dim3 b = block;` or the launch's copy of `block`).
  if (auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E))
    if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      E = stripConstruction(C->getArg(0));
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
  auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || Depth > 4)
    return E;
  if (Var->getType().isConstQualified() && !llvm::isa<clang::ParmVarDecl>(Var) && Var->getInit() &&
      !Var->getType()->isReferenceType())
    return definingExpr(Var->getInit(), Depth + 1);
  const clang::Expr *Init = unwrittenLocalInitializer(E);
  return Init ? definingExpr(Init, Depth + 1) : E;
}

} // namespace

const clang::Expr *stripConstruction(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *Cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else if (auto *M = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (auto *B = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (auto *C = llvm::dyn_cast<clang::ExprWithCleanups>(E))
      E = C->getSubExpr();
    else
      return E;
  }
}

std::optional<uint64_t> constantInteger(const clang::ASTContext &Ctx, const clang::Expr *E) {
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx)) {
    const clang::Expr *Defining = definingExpr(E);
    return Defining != stripConstruction(E) ? constantInteger(Ctx, Defining) : std::nullopt;
  }
  if (R.Val.getInt().isNegative())
    return std::nullopt;
  return R.Val.getInt().getZExtValue();
}

std::optional<uint64_t> constantOperand(const clang::ASTContext &Ctx, const clang::Expr *Operand) {
  const clang::Expr *E = definingExpr(writtenOperand(Operand));
  if (std::optional<uint64_t> N = constantInteger(Ctx, E))
    return N;
  auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E);
  if (!C || C->getNumArgs() == 0)
    return std::nullopt;
  uint64_t Product = 1;
  for (const clang::Expr *Arg : C->arguments()) {
    std::optional<uint64_t> N = constantInteger(Ctx, Arg->IgnoreParenImpCasts());
    if (!N)
      return std::nullopt;
    Product *= *N;
  }
  return Product;
}

std::optional<std::array<uint64_t, 3>> constantShape(const clang::ASTContext &Ctx,
                                                     const clang::Expr *Operand) {
  const clang::Expr *E = definingExpr(writtenOperand(Operand));
  if (std::optional<uint64_t> N = constantInteger(Ctx, E))
    return std::array<uint64_t, 3>{*N, 1, 1};
  auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E);
  if (!C || C->getNumArgs() == 0 || C->getNumArgs() > 3)
    return std::nullopt;
  std::array<uint64_t, 3> Shape{1, 1, 1};
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    std::optional<uint64_t> N = constantInteger(Ctx, C->getArg(I)->IgnoreParenImpCasts());
    if (!N)
      return std::nullopt;
    Shape[I] = *N;
  }
  return Shape;
}

namespace {

using Bindings = std::map<const clang::NamedDecl *, int64_t>;

// The value of an integer expression of a template under Bound, the values
// of its non-type parameters.
std::optional<int64_t> valueUnder(const clang::ASTContext &Ctx, const clang::Expr *E,
                                  const Bindings &Bound) {
  E = E->IgnoreParenImpCasts();
  if (!E->isValueDependent()) {
    std::optional<uint64_t> V = constantInteger(Ctx, E);
    return V ? std::optional<int64_t>(int64_t(*V)) : std::nullopt;
  }
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    auto It = Bound.find(Ref->getDecl());
    if (It != Bound.end())
      return It->second;
    // `const int warps = NUM_THREADS / warpSize;`, a local of the parameters.
    if (const clang::Expr *Init = unwrittenLocalInitializer(E))
      return valueUnder(Ctx, Init, Bound);
    return std::nullopt;
  }
  if (auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(E))
    return valueUnder(Ctx, Cast->getSubExpr(), Bound);
  auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  std::optional<int64_t> L = valueUnder(Ctx, B->getLHS(), Bound);
  std::optional<int64_t> R = valueUnder(Ctx, B->getRHS(), Bound);
  if (!L || !R)
    return std::nullopt;
  switch (B->getOpcode()) {
  case clang::BO_Add:
    return *L + *R;
  case clang::BO_Sub:
    return *L - *R;
  case clang::BO_Mul:
    return *L * *R;
  case clang::BO_Div:
    return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
  case clang::BO_Shl:
    return *R >= 0 && *R < 32 ? std::optional<int64_t>(*L << *R) : std::nullopt;
  default:
    return std::nullopt;
  }
}

// The values a launch of Template gives its non-type parameters: from the
// specialization it resolves to, else from the arguments it writes (Clang
// 19 leaves a launch with written template arguments unresolved).
std::optional<Bindings> bindingsOf(const clang::ASTContext &Ctx,
                                   const clang::FunctionTemplateDecl &Template,
                                   const LaunchSite &Launch) {
  const clang::Expr *Callee = launchedKernel(*Launch.Call);
  const clang::TemplateParameterList *Params = Template.getTemplateParameters();
  Bindings Bound;
  const clang::TemplateArgumentList *Resolved = nullptr;
  llvm::ArrayRef<clang::TemplateArgumentLoc> Written;
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee)) {
    if (auto *F = llvm::dyn_cast<clang::FunctionDecl>(Ref->getDecl()))
      Resolved = F->getTemplateSpecializationArgs();
    Written = Ref->template_arguments();
  } else if (auto *ULE = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee)) {
    Written = ULE->template_arguments();
  }
  for (unsigned I = 0; I < Params->size(); ++I) {
    const clang::NamedDecl *P = Params->getParam(I);
    if (!llvm::isa<clang::NonTypeTemplateParmDecl>(P))
      continue;
    std::optional<int64_t> Value;
    if (Resolved && I < Resolved->size() &&
        Resolved->get(I).getKind() == clang::TemplateArgument::Integral)
      Value = Resolved->get(I).getAsIntegral().getExtValue();
    else if (I < Written.size() &&
             Written[I].getArgument().getKind() == clang::TemplateArgument::Expression)
      Value = valueUnder(Ctx, Written[I].getArgument().getAsExpr(), {});
    if (Value)
      Bound[P] = *Value;
  }
  return Bound;
}

} // namespace

std::optional<std::array<uint64_t, 3>>
constantShapeUnder(const clang::ASTContext &Ctx, const clang::FunctionDecl &Template,
                   const clang::Expr *Operand,
                   const std::vector<const LaunchSite *> &Instantiations) {
  const clang::FunctionTemplateDecl *Described = Template.getDescribedFunctionTemplate();
  if (!Described || !Operand || Instantiations.empty())
    return std::nullopt;
  const clang::Expr *E = stripConstruction(writtenOperand(Operand));
  std::vector<const clang::Expr *> Dimensions{E};
  if (auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    Dimensions.assign(C->arg_begin(), C->arg_end());
    while (!Dimensions.empty() && llvm::isa<clang::CXXDefaultArgExpr>(Dimensions.back()))
      Dimensions.pop_back();
  }
  if (Dimensions.empty() || Dimensions.size() > 3)
    return std::nullopt;
  std::optional<std::array<uint64_t, 3>> Found;
  for (const LaunchSite *Launch : Instantiations) {
    std::optional<Bindings> Bound = bindingsOf(Ctx, *Described, *Launch);
    if (!Bound)
      return std::nullopt;
    std::array<uint64_t, 3> Shape{1, 1, 1};
    for (size_t I = 0; I < Dimensions.size(); ++I) {
      std::optional<int64_t> V = valueUnder(Ctx, Dimensions[I], *Bound);
      if (!V || *V < 0)
        return std::nullopt;
      Shape[I] = uint64_t(*V);
    }
    if (Found && *Found != Shape)
      return std::nullopt;
    Found = Shape;
  }
  return Found;
}

} // namespace launchopt

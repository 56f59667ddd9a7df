#include "InstructionEstimate.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>

namespace launchopt {

using namespace clang;

namespace {

// Device functions followed into from the kernel.
const unsigned MaxCallDepth = 3;

// Instructions of a maths library call with no body to follow.
std::optional<double> libraryCall(llvm::StringRef Name) {
  Name.consume_front("__");
  // Atomics scoped to the block or the system cost what the device's do.
  if (Name.starts_with("atomic") && !Name.consume_back("_block"))
    Name.consume_back("_system");
  double Cost = llvm::StringSwitch<double>(Name)
                    .Cases("fabsf", "fabs", "fminf", "fmaxf", "fmin", "fmax", "min", "max", 1)
                    .Cases("floorf", "ceilf", "floor", "ceil", "truncf", "roundf", 1)
                    .Cases("fmaf", "fma", "saturatef", "syncthreads", "threadfence", 1)
                    .Cases("sqrtf", "rsqrtf", "fsqrt_rn", "frcp_rn", 8)
                    .Cases("sqrt", "rsqrt", 20)
                    .Cases("expf", "exp2f", "logf", "log2f", "fdividef", 10)
                    .Cases("exp", "exp2", "log", "log2", "log10f", 30)
                    .Cases("sinf", "cosf", "tanhf", "tanf", "atanf", 20)
                    .Cases("sin", "cos", "tanh", "tan", "atan2f", "powf", 40)
                    .Cases("pow", "atan2", 80)
                    .Cases("atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicExch", 4)
                    .Cases("atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "atomicInc", 4)
                    .Case("atomicDec", 4)
                    .Default(-1);
  if (Cost < 0)
    return std::nullopt;
  return Cost;
}

class Estimator {
public:
  Estimator(const ASTContext &Ctx, unsigned Depth) : Ctx(Ctx), Depth(Depth) {}

  std::optional<double> stmt(const Stmt *S) {
    if (!S)
      return 0.0;
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) ||
        isa<GotoStmt>(S))
      return std::nullopt;
    if (const auto *If = dyn_cast<IfStmt>(S))
      return branch(If->getCond(), If->getThen(), If->getElse());
    if (const auto *C = dyn_cast<ConditionalOperator>(S))
      return branch(C->getCond(), C->getTrueExpr(), C->getFalseExpr());
    if (const auto *Call = dyn_cast<CallExpr>(S))
      return call(Call);
    if (isa<PseudoObjectExpr>(S)) // threadIdx.x and the like: a special register read
      return 1.0;
    std::optional<double> Own = ownCost(S);
    if (!Own)
      return std::nullopt;
    double Sum = *Own;
    for (const Stmt *Child : S->children()) {
      std::optional<double> C = stmt(Child);
      if (!C)
        return std::nullopt;
      Sum += *C;
    }
    return Sum;
  }

private:
  const ASTContext &Ctx;
  unsigned Depth;

  std::optional<double> branch(const Stmt *Cond, const Stmt *Then, const Stmt *Else) {
    std::optional<double> C = stmt(Cond), T = stmt(Then), E = stmt(Else);
    if (!C || !T || !E)
      return std::nullopt;
    return *C + 1 + std::max(*T, *E);
  }

  std::optional<double> call(const CallExpr *Call) {
    double Arguments = 0;
    for (const Expr *A : Call->arguments()) {
      std::optional<double> C = stmt(A);
      if (!C)
        return std::nullopt;
      Arguments += *C;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return std::nullopt;
    // The headers define the maths functions and atomics over compiler
    // builtins that cannot be followed: their known costs come first.
    if (std::optional<double> Library = libraryCall(Callee->getName()))
      return Arguments + *Library;
    if (const FunctionDecl *Definition = Callee->getDefinition();
        Definition && Definition->hasBody() && !Definition->hasAttr<CUDAGlobalAttr>()) {
      if (Depth >= MaxCallDepth)
        return std::nullopt;
      std::optional<double> Body = Estimator(Ctx, Depth + 1).stmt(Definition->getBody());
      return Body ? std::optional<double>(Arguments + 2 + *Body) : std::nullopt;
    }
    return std::nullopt;
  }

  static bool isFloating(QualType T) { return T->isRealFloatingType(); }
  static bool isDouble(QualType T) { return T->isSpecificBuiltinType(BuiltinType::Double); }

  // What the node itself issues, its operands aside.
  std::optional<double> ownCost(const Stmt *S) const {
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      BinaryOperatorKind Op = B->getOpcode();
      if (Op == BO_Assign || Op == BO_Comma)
        return 0.0;
      QualType T = B->getType();
      if (Op == BO_Div || Op == BO_DivAssign || Op == BO_Rem || Op == BO_RemAssign) {
        if (isFloating(T))
          return isDouble(T) ? 20.0 : 10.0;
        return B->getRHS()->isIntegerConstantExpr(Ctx) ? 4.0 : 20.0;
      }
      return 1.0;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S))
      return U->getOpcode() == UO_AddrOf ? 0.0 : U->getOpcode() == UO_Deref ? 2.0 : 1.0;
    if (isa<ArraySubscriptExpr>(S))
      return 2.0;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
      CastKind K = Cast->getCastKind();
      return K == CK_IntegralToFloating || K == CK_FloatingToIntegral || K == CK_FloatingCast ? 1.0
                                                                                              : 0.0;
    }
    if (const auto *Cast = dyn_cast<CStyleCastExpr>(S)) {
      CastKind K = Cast->getCastKind();
      return K == CK_IntegralToFloating || K == CK_FloatingToIntegral ? 1.0 : 0.0;
    }
    return 0.0;
  }
};

} // namespace

std::optional<double> estimatedInstructions(const FunctionDecl &Kernel) {
  if (!Kernel.hasBody())
    return std::nullopt;
  return Estimator(Kernel.getASTContext(), 0).stmt(Kernel.getBody());
}

} // namespace launchopt

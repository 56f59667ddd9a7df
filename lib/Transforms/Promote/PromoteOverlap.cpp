#include "PromoteOverlap.h"

#include "Analysis/SourceText.h"
#include "Analysis/Uniformity.h"
#include "Analysis/VariableWrites.h"
#include "Transforms/Common/Refusal.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <set>

namespace launchopt {

namespace {

bool isBuiltinIndex(const clang::ValueDecl *D, bool ThreadToo) {
  llvm::StringRef N = D->getName();
  return N == "blockDim" || N == "gridDim" || N == "blockIdx" || (ThreadToo && N == "threadIdx");
}

// What the kernel knows at its start, per parameter.
class StartValues {
public:
  StartValues(clang::ASTContext &Ctx, const LaunchSite &Site)
      : Ctx(Ctx), Kernel(*Site.Parent), Available(Site.Parent->getNumParams(), true) {}

  // Whether E can be evaluated at the kernel's start, by any thread of the
  // block alike; with ThreadToo, threadIdx may be read too.
  bool known(const clang::Expr *E, bool ThreadToo = false) const {
    struct Vars : clang::RecursiveASTVisitor<Vars> {
      const StartValues &S;
      bool ThreadToo, Ok = true, Thread = false;
      Vars(const StartValues &S, bool ThreadToo) : S(S), ThreadToo(ThreadToo) {}
      bool VisitDeclRefExpr(clang::DeclRefExpr *R) {
        const clang::ValueDecl *D = R->getDecl();
        if (D->getName() == "threadIdx")
          Thread = true;
        if (isBuiltinIndex(D, ThreadToo))
          return true;
        if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(D))
          Ok &= S.isAvailable(P);
        else if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
          Ok &= !V->hasLocalStorage() && V->getType().isConstQualified();
        return true;
      }
    } Check(*this, ThreadToo);
    Check.TraverseStmt(const_cast<clang::Expr *>(E));
    if (!Check.Ok || (Check.Thread && !ThreadToo))
      return false;
    return Check.Thread || isUniform(Ctx, *E, Kernel, UniformityScope::Block);
  }
  bool isAvailable(const clang::ParmVarDecl *P) const {
    unsigned I = P->getFunctionScopeIndex();
    return P->getDeclContext() == &Kernel && I < Available.size() && Available[I] &&
           !isWrittenIn(&Kernel, P);
  }

  clang::ASTContext &Ctx;
  const clang::FunctionDecl &Kernel;
  std::vector<bool> Available;
};

std::string lineOf(const clang::ASTContext &Ctx, const clang::Stmt *S) {
  return "line " + std::to_string(Ctx.getSourceManager().getPresumedLineNumber(S->getBeginLoc()));
}

// The launch condition without the choice of the thread.
llvm::Expected<std::string> earlyCondition(clang::ASTContext &Ctx, const LaunchSite &Site,
                                           const StartValues &Start) {
  std::vector<std::string> Terms;
  std::function<llvm::Error(const clang::Expr *)> Conjuncts =
      [&](const clang::Expr *E) -> llvm::Error {
    E = E->IgnoreParenImpCasts();
    if (const auto *And = llvm::dyn_cast<clang::BinaryOperator>(E))
      if (And->getOpcode() == clang::BO_LAnd) {
        if (llvm::Error Err = Conjuncts(And->getLHS()))
          return Err;
        return Conjuncts(And->getRHS());
      }
    std::optional<FileRange> R = writtenRange(Ctx, E->getSourceRange());
    if (!R)
      return refusal("the launch condition is written in a macro");
    if (Start.known(E)) {
      Terms.push_back("(" + textOf(Ctx, *R) + ")");
      return llvm::Error::success();
    }
    if (Start.known(E, /*ThreadToo=*/true))
      return llvm::Error::success(); // the choice of the launching thread
    return refusal("the launch condition '" + textOf(Ctx, *R) +
                   "' depends on the body, so the successor cannot know at its start "
                   "whether it runs");
  };
  const clang::Stmt *Body = Site.Parent->getBody();
  clang::DynTypedNode Node = clang::DynTypedNode::create(*Site.Call);
  const clang::Stmt *Current = Site.Call;
  while (Current != Body) {
    auto Parents = Ctx.getParents(Node);
    const clang::Stmt *Parent = Parents.size() == 1 ? Parents[0].get<clang::Stmt>() : nullptr;
    if (!Parent)
      return refusal("the launch's place cannot be followed to the kernel's body");
    if (const auto *If = llvm::dyn_cast<clang::IfStmt>(Parent)) {
      if (If->getThen() == Current) {
        if (llvm::Error E = Conjuncts(If->getCond()))
          return std::move(E);
      } else {
        std::optional<FileRange> R = writtenRange(Ctx, If->getCond()->getSourceRange());
        if (!R || !Start.known(If->getCond()))
          return refusal("the launch is in an else branch whose condition depends on the body");
        Terms.push_back("!(" + textOf(Ctx, *R) + ")");
      }
    }
    Current = Parent;
    Node = Parents[0];
  }
  if (Terms.empty())
    return std::string("true");
  std::string Joined = Terms[0];
  for (size_t I = 1; I < Terms.size(); ++I)
    Joined += " && " + Terms[I];
  return Joined;
}

// Why a statement at the start of the body cannot run before the release;
// empty when it can. It may only write its own locals and shared memory of
// the region, read memory only from those and from read-only inputs (const
// T *__restrict__ parameters), and call functions of numbers.
class RegionCheck : public clang::RecursiveASTVisitor<RegionCheck> {
public:
  RegionCheck(clang::ASTContext &Ctx, const StartValues &Start,
              std::set<const clang::VarDecl *> &Declared)
      : Ctx(Ctx), Start(Start), Declared(Declared) {}
  std::string Why;

  bool VisitVarDecl(clang::VarDecl *V) {
    if (V->hasLocalStorage() || V->hasAttr<clang::CUDASharedAttr>())
      Declared.insert(V);
    else
      fail("declares the static variable '" + V->getName().str() + "'");
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *R) {
    const clang::ValueDecl *D = R->getDecl();
    if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(D)) {
      if (P->getDeclContext() == &Start.Kernel && !Start.isAvailable(P))
        fail("reads the postponed parameter '" + P->getName().str() + "'");
    } else if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D)) {
      if (!V->hasLocalStorage() && !Declared.count(V) && !V->getType().isConstQualified() &&
          !isBuiltinIndex(V, /*ThreadToo=*/true))
        fail("reads the variable '" + V->getName().str() + "', which the parent may write");
    }
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt *) { return InCallee || fail("returns"); }
  bool VisitGotoStmt(clang::GotoStmt *) { return fail("jumps"); }
  bool VisitAsmStmt(clang::AsmStmt *) { return fail("has inline assembly"); }
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *) { return fail("launches a kernel"); }
  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    if (B->isAssignmentOp())
      checkWrite(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      checkWrite(U->getSubExpr());
    else if (U->getOpcode() == clang::UO_Deref)
      checkRead(U->getSubExpr());
    else if (U->getOpcode() == clang::UO_AddrOf)
      fail("takes an address");
    return true;
  }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *A) {
    checkRead(A->getBase());
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *M) {
    if (M->isArrow())
      checkRead(M->getBase());
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *C) {
    const clang::FunctionDecl *F = C->getDirectCallee();
    if (!F && C->isTypeDependent())
      if (const auto *Name = llvm::dyn_cast<clang::OverloadExpr>(C->getCallee()->IgnoreParens()))
        return fail("calls '" + Name->getName().getAsString() +
                    "' with arguments whose types depend on the template's parameters");
    if (!F)
      return fail("calls through a pointer");
    if (F->getName() == "__syncthreads")
      return true;
    if (!ofNumbers(*F))
      return fail("calls '" + F->getNameAsString() + "', which takes or returns more than numbers");
    if (F->getBuiltinID() || Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
      return true;
    const clang::FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def) || Depth > 3)
      return fail("calls '" + F->getNameAsString() + "', whose body is not visible");
    std::set<const clang::VarDecl *> Inner;
    for (const clang::ParmVarDecl *P : Def->parameters())
      Inner.insert(P);
    RegionCheck Callee(Ctx, Start, Inner);
    Callee.Depth = Depth + 1;
    Callee.InCallee = true;
    Callee.TraverseStmt(Def->getBody());
    if (!Callee.Why.empty())
      return fail("calls '" + F->getNameAsString() + "', which " + Callee.Why);
    return true;
  }

private:
  bool fail(const std::string &Reason) {
    if (Why.empty())
      Why = Reason;
    return true;
  }
  static bool ofNumbers(const clang::FunctionDecl &F) {
    auto Number = [](clang::QualType T) {
      return T->isArithmeticType() || T->isEnumeralType() || T->isVoidType();
    };
    if (!Number(F.getReturnType()))
      return false;
    for (const clang::ParmVarDecl *P : F.parameters())
      if (!Number(P->getType()))
        return false;
    return true;
  }
  const clang::VarDecl *baseVar(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (true) {
      if (const auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
        E = A->getBase()->IgnoreParenImpCasts();
      else if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(E); M && !M->isArrow())
        E = M->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    const auto *R = llvm::dyn_cast<clang::DeclRefExpr>(E);
    return R ? llvm::dyn_cast<clang::VarDecl>(R->getDecl()) : nullptr;
  }
  void checkWrite(const clang::Expr *Target) {
    const clang::VarDecl *V = baseVar(Target);
    if (!V || !Declared.count(V) || V->getType()->isPointerType())
      fail(V ? "writes '" + V->getName().str() + "', which is not its own" : "writes memory");
  }
  void checkRead(const clang::Expr *Base) {
    Base = Base->IgnoreParenImpCasts();
    const auto *R = llvm::dyn_cast<clang::DeclRefExpr>(Base);
    const auto *V = R ? llvm::dyn_cast<clang::VarDecl>(R->getDecl()) : nullptr;
    if (V && Declared.count(V) && V->getType()->isArrayType())
      return;
    if (const auto *P = llvm::dyn_cast_or_null<clang::ParmVarDecl>(V)) {
      clang::QualType T = P->getType();
      if (!InCallee && T->isPointerType() && T.isRestrictQualified() &&
          T->getPointeeType().isConstQualified() && Start.isAvailable(P))
        return;
    }
    fail("reads memory through " +
         (V ? "'" + V->getName().str() + "'" : std::string("an expression")) +
         ", which the parent may write (a read-only input is a const T *__restrict__ "
         "parameter)");
  }

  clang::ASTContext &Ctx;
  const StartValues &Start;
  std::set<const clang::VarDecl *> &Declared;
  unsigned Depth = 0;
  bool InCallee = false;
};

bool containsStmt(const clang::Stmt *Outer, const clang::Stmt *Inner) {
  if (Outer == Inner)
    return true;
  for (const clang::Stmt *Child : Outer->children())
    if (Child && containsStmt(Child, Inner))
      return true;
  return false;
}

} // namespace

llvm::Expected<OverlapPlan> planOverlap(clang::ASTContext &Ctx, const LaunchSite &Site) {
  StartValues Start(Ctx, Site);
  const clang::FunctionDecl &Kernel = *Site.Parent;
  // A parameter is known at the successor's start when its argument is
  // computed from parameters known at the parent's start.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = 0; I < Start.Available.size() && I < Site.Arguments.size(); ++I)
      if (Start.Available[I] && !Start.known(Site.Arguments[I])) {
        Start.Available[I] = false;
        Changed = true;
      }
  }
  for (unsigned I = 0; I < Start.Available.size(); ++I)
    if (!Start.Available[I] && Kernel.getParamDecl(I)->getType().isConstQualified())
      return refusal("the postponed parameter '" + Kernel.getParamDecl(I)->getName() +
                     "' is const: it cannot receive its value after the start");
  llvm::Expected<std::string> Condition = earlyCondition(Ctx, Site, Start);
  if (!Condition)
    return Condition.takeError();

  OverlapPlan Plan;
  Plan.Available = Start.Available;
  Plan.EarlyCondition = *Condition;
  const auto *Body = llvm::cast<clang::CompoundStmt>(Kernel.getBody());
  std::set<const clang::VarDecl *> Declared;
  for (const clang::Stmt *S : Body->body()) {
    RegionCheck Check(Ctx, Start, Declared);
    Check.TraverseStmt(const_cast<clang::Stmt *>(S));
    if (containsStmt(S, Site.Call))
      Check.Why = "holds the launch";
    if (!Check.Why.empty()) {
      std::optional<FileRange> Next = writtenRange(Ctx, S->getSourceRange());
      if (!Next)
        return refusal("the statement at " + lineOf(Ctx, S) + " is written in a macro");
      Plan.NextStatement = Next->Begin;
      Plan.Stop = lineOf(Ctx, S) + " " + Check.Why;
      break;
    }
    ++Plan.Statements;
  }
  if (Plan.Statements == 0)
    return refusal("the body's first statement cannot run before the release: " + Plan.Stop);
  return Plan;
}

} // namespace launchopt

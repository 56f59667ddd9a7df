#include "UniformAtomics.h"

#include "VariableWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <map>
#include <optional>
#include <set>

namespace launchopt {

namespace {

// The name a call is written with: its callee's, or in a template the name
// its unresolved overloads share.
std::string calleeName(const clang::CallExpr &Call) {
  if (const clang::FunctionDecl *F = Call.getDirectCallee())
    return F->getNameAsString();
  if (const auto *Overloads =
          llvm::dyn_cast<clang::OverloadExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    return Overloads->getName().getAsString();
  return "";
}

// atomicAdd -> {Add, Device}, atomicMax_block -> {Max, Block}.
std::optional<UniformAtomic> atomicKind(const clang::CallExpr &Call) {
  const std::string Held = calleeName(Call);
  llvm::StringRef Name = Held;
  if (!Name.consume_front("atomic"))
    return std::nullopt;
  std::string Scope = "Device";
  if (Name.consume_back("_block"))
    Scope = "Block";
  else if (Name.consume_back("_system"))
    Scope = "System";
  if (!llvm::is_contained({"Add", "Sub", "Min", "Max", "And", "Or", "Xor"}, Name))
    return std::nullopt;
  return UniformAtomic{&Call, Name.str(), Scope};
}

// The CUDA headers' function (or a header's stand-in of the same name, as
// old code wrote atomicAdd for double), not one the file itself defines.
bool isCudaAtomic(const clang::ASTContext &Ctx, const clang::CallExpr &Call) {
  const clang::FunctionDecl *F = Call.getDirectCallee();
  if (!F)
    return Call.isTypeDependent();
  const clang::SourceManager &SM = Ctx.getSourceManager();
  return !SM.isInMainFile(SM.getExpansionLoc(F->getLocation()));
}

// Whether the pointee takes the operation as a combinable update: integers
// for every operation, float and double for sums; a template's dependent
// type is the original's to compile.
bool combinableType(const UniformAtomic &A, clang::QualType Pointee) {
  if (Pointee.isNull() || Pointee.isVolatileQualified() || Pointee.isConstQualified())
    return false;
  if (Pointee->isDependentType())
    return true;
  if (Pointee->isIntegerType() && !Pointee->isBooleanType())
    return true;
  return A.Op == "Add" && (Pointee->isSpecificBuiltinType(clang::BuiltinType::Float) ||
                           Pointee->isSpecificBuiltinType(clang::BuiltinType::Double));
}

// Whether E computes the same address in every thread of the grid without
// reading memory; Bases gets the pointers and globals it is built from.
bool uniformAddress(const clang::FunctionDecl &Kernel, const clang::Expr *E,
                    std::set<const clang::ValueDecl *> &Bases, int Depth = 0) {
  if (!E || Depth > 16)
    return false;
  E = E->IgnoreParenImpCasts();
  if (llvm::isa<clang::IntegerLiteral, clang::SubstNonTypeTemplateParmExpr,
                clang::UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const clang::ValueDecl *D = Ref->getDecl();
    if (llvm::isa<clang::NonTypeTemplateParmDecl, clang::EnumConstantDecl>(D))
      return true;
    if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(D)) {
      if (P->getDeclContext() != &Kernel || isWrittenIn(&Kernel, P))
        return false;
      // The memory updated is what a pointer points to; an index is a value.
      if (P->getType()->isPointerType())
        Bases.insert(P);
      return true;
    }
    const auto *Var = llvm::dyn_cast<clang::VarDecl>(D);
    // A global array decays to its address; a constant is a value.
    if (Var && Var->hasGlobalStorage() && Var->getType()->isArrayType()) {
      Bases.insert(Var);
      return true;
    }
    return Var && Var->hasGlobalStorage() && Var->getType().isConstQualified() &&
           Var->getType()->isIntegralOrEnumerationType();
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    if (U->getOpcode() != clang::UO_AddrOf)
      return U->getOpcode() == clang::UO_Minus &&
             uniformAddress(Kernel, U->getSubExpr(), Bases, Depth + 1);
    const clang::Expr *Object = U->getSubExpr()->IgnoreParens();
    if (const auto *Element = llvm::dyn_cast<clang::ArraySubscriptExpr>(Object))
      return uniformAddress(Kernel, Element->getBase(), Bases, Depth + 1) &&
             uniformAddress(Kernel, Element->getIdx(), Bases, Depth + 1);
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Object);
    const auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasGlobalStorage() || Var->isStaticLocal())
      return false;
    Bases.insert(Var);
    return true;
  }
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E))
    return (B->isAdditiveOp() || B->isMultiplicativeOp() || B->isShiftOp() || B->isBitwiseOp()) &&
           uniformAddress(Kernel, B->getLHS(), Bases, Depth + 1) &&
           uniformAddress(Kernel, B->getRHS(), Bases, Depth + 1);
  return false;
}

// The call a statement consists of, its value unused.
const clang::CallExpr *statementCall(const clang::Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *Cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(S))
    S = Cleanups->getSubExpr();
  if (const auto *Cast = llvm::dyn_cast<clang::CStyleCastExpr>(S);
      Cast && Cast->getType()->isVoidType())
    S = Cast->getSubExpr()->IgnoreParens();
  return llvm::dyn_cast<clang::CallExpr>(S);
}

// Walks the kernel: calls in statement position, references to variables,
// and anything that orders memory or leaves the body (fences, assembly,
// launches, calls it cannot follow). Callees are followed for the globals
// they name and what they order.
class AtomicScan : public clang::RecursiveASTVisitor<AtomicScan> {
public:
  AtomicScan(const clang::ASTContext &Ctx, int Depth) : Ctx(Ctx), Depth(Depth) {}

  bool VisitCompoundStmt(clang::CompoundStmt *S) {
    for (clang::Stmt *Child : S->body())
      noteStatement(Child);
    return true;
  }
  bool VisitIfStmt(clang::IfStmt *S) {
    noteStatement(S->getThen());
    noteStatement(S->getElse());
    return true;
  }
  bool VisitForStmt(clang::ForStmt *S) {
    noteStatement(S->getBody());
    return true;
  }
  bool VisitWhileStmt(clang::WhileStmt *S) {
    noteStatement(S->getBody());
    return true;
  }
  bool VisitDoStmt(clang::DoStmt *S) {
    noteStatement(S->getBody());
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    ++References[Ref->getDecl()];
    return true;
  }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *) { return stop(); }
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *) { return stop(); }
  bool VisitCallExpr(clang::CallExpr *Call) {
    std::string Name = calleeName(*Call);
    if (llvm::StringRef(Name).contains("fence") || llvm::StringRef(Name).starts_with("__sync"))
      return stop();
    const clang::FunctionDecl *F = Call->getDirectCallee();
    if (!F)
      return Call->isTypeDependent() || stop();
    if (F->getBuiltinID() || Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
      return true;
    // The toolkit's atomics (their definitions are assembly) order nothing
    // beyond their own word.
    if (llvm::StringRef(Name).starts_with("atomic") && isCudaAtomic(Ctx, *Call))
      return true;
    const clang::FunctionDecl *Definition = nullptr;
    if (!F->hasBody(Definition) || Depth > 4)
      return stop();
    AtomicScan Callee(Ctx, Depth + 1);
    Callee.TraverseStmt(Definition->getBody());
    if (Callee.Stopped)
      return stop();
    // Its atomics are not the kernel's statements; their names count.
    for (const auto &[Decl, Count] : Callee.References)
      References[Decl] += Count;
    return true;
  }

  std::vector<const clang::CallExpr *> StatementCalls;
  std::map<const clang::ValueDecl *, unsigned> References;
  bool Stopped = false;

private:
  void noteStatement(const clang::Stmt *S) {
    if (const clang::CallExpr *Call = statementCall(S))
      StatementCalls.push_back(Call);
  }
  bool stop() {
    Stopped = true;
    return false;
  }
  const clang::ASTContext &Ctx;
  int Depth;
};

// References to the variables of E.
void countReferences(const clang::Expr *E, std::map<const clang::ValueDecl *, unsigned> &Counts) {
  struct Counter : clang::RecursiveASTVisitor<Counter> {
    std::map<const clang::ValueDecl *, unsigned> *Counts;
    bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
      ++(*Counts)[Ref->getDecl()];
      return true;
    }
  } C;
  C.Counts = &Counts;
  C.TraverseStmt(const_cast<clang::Expr *>(E));
}

} // namespace

std::vector<UniformAtomic> uniformAtomics(const clang::FunctionDecl &Kernel) {
  if (!Kernel.hasBody())
    return {};
  const clang::ASTContext &Ctx = Kernel.getASTContext();
  AtomicScan Scan(Ctx, 0);
  Scan.TraverseStmt(Kernel.getBody());
  if (Scan.Stopped)
    return {};
  std::vector<UniformAtomic> Found;
  std::set<const clang::ValueDecl *> Bases;
  // Updates of different kinds to one variable do not commute (a sum and a
  // maximum): each variable's atomics must agree.
  std::map<const clang::ValueDecl *, std::string> KindOf;
  std::map<const clang::ValueDecl *, unsigned> InAddresses;
  for (const clang::CallExpr *Call : Scan.StatementCalls) {
    std::optional<UniformAtomic> A = atomicKind(*Call);
    if (!A || Call->getNumArgs() != 2 || !isCudaAtomic(Ctx, *Call))
      continue;
    const clang::Expr *Address = Call->getArg(0);
    const clang::QualType Type = Address->getType();
    if (!Type->isPointerType() || !combinableType(*A, Type->getPointeeType()))
      continue;
    std::set<const clang::ValueDecl *> Own;
    if (!uniformAddress(Kernel, Address, Own))
      continue;
    for (const clang::ValueDecl *Base : Own) {
      auto [At, New] = KindOf.insert({Base, A->Op + A->Scope});
      if (!New && At->second != A->Op + A->Scope)
        return {};
    }
    Bases.insert(Own.begin(), Own.end());
    countReferences(Address, InAddresses);
    Found.push_back(*A);
  }
  // An address's variable named anywhere else (read, passed, used in
  // another atomic) could observe the combined updates' absence.
  for (const clang::ValueDecl *Base : Bases)
    if (Scan.References[Base] != InAddresses[Base])
      return {};
  return Found;
}

} // namespace launchopt

#include "ChildIndependence.h"

#include "KernelFeatures.h"
#include "VariableWrites.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <map>
#include <set>

namespace launchopt {

namespace {

// An integer expression as a polynomial over atoms (a variable, a built-in
// index); the atoms of one polynomial are named uniquely by their declaration.
using Monomial = std::vector<std::string>;
using Poly = std::map<Monomial, long long>;

Poly constant(long long C) { return C ? Poly{{{}, C}} : Poly{}; }
Poly plus(Poly A, const Poly &B, long long Sign = 1) {
  for (const auto &[M, C] : B)
    if ((A[M] += Sign * C) == 0)
      A.erase(M);
  return A;
}
Poly times(const Poly &A, const Poly &B) {
  Poly P;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      llvm::sort(M);
      P = plus(P, Poly{{M, CA * CB}});
    }
  return P;
}

// The least value of P when every atom marked non-negative ('+' first) is
// non-negative and has a non-negative coefficient; nothing otherwise.
std::optional<long long> lowerBound(const Poly &P) {
  long long Least = 0;
  for (const auto &[M, C] : P) {
    if (M.empty()) {
      Least = C;
      continue;
    }
    if (C < 0)
      return std::nullopt;
    for (const std::string &Atom : M)
      if (Atom.empty() || Atom[0] != '+')
        return std::nullopt;
  }
  return Least;
}

// "store + 1" for a polynomial, with the names as written.
std::string polyText(const Poly &P) {
  std::string Text;
  std::vector<std::pair<Monomial, long long>> Terms(P.begin(), P.end());
  // The constant last: `store + 1`.
  std::stable_partition(Terms.begin(), Terms.end(), [](const auto &T) { return !T.first.empty(); });
  for (const auto &[M, C] : Terms) {
    std::string Term;
    for (const std::string &Atom : M)
      Term += (Term.empty() ? "" : " * ") +
              Atom.substr(Atom[0] == '+', Atom.find('@') - (Atom[0] == '+'));
    long long Magnitude = C < 0 ? -C : C;
    if (Term.empty())
      Term = std::to_string(Magnitude);
    else if (Magnitude != 1)
      Term = std::to_string(Magnitude) + " * " + Term;
    Text += Text.empty() ? (C < 0 ? "-" + Term : Term) : (C < 0 ? " - " : " + ") + Term;
  }
  return Text.empty() ? "0" : Text;
}

std::string atomName(const clang::ValueDecl *D) {
  bool Unsigned = D->getType()->isUnsignedIntegerType();
  return (Unsigned ? "+" : "") + D->getNameAsString() + "@" +
         std::to_string(reinterpret_cast<uintptr_t>(D));
}

// Every place F writes Var (assignment, increment, address taken).
std::vector<const clang::Expr *> writesOf(const clang::FunctionDecl &F, const clang::VarDecl *Var) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::VarDecl *Var;
    std::vector<const clang::Expr *> Writes;
    bool refers(const clang::Expr *E) {
      auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == Var;
    }
    bool VisitBinaryOperator(clang::BinaryOperator *B) {
      if (B->isAssignmentOp() && refers(B->getLHS()))
        Writes.push_back(B);
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *U) {
      if ((U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_AddrOf) &&
          refers(U->getSubExpr()))
        Writes.push_back(U);
      return true;
    }
    bool VisitCallExpr(clang::CallExpr *C) {
      for (const clang::Expr *Arg : C->arguments())
        if (refers(Arg) && Arg->isLValue() && !llvm::isa<clang::ImplicitCastExpr>(Arg))
          Writes.push_back(C);
      return true;
    }
  } Find;
  Find.Var = Var;
  if (F.getBody())
    Find.TraverseStmt(F.getBody());
  return Find.Writes;
}

// The statement above S; a local's initialiser is under its declaration
// statement.
const clang::Stmt *parentOf(clang::ASTContext &Ctx, const clang::Stmt *S) {
  clang::DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (const auto *P = Parents[0].get<clang::Stmt>())
      return P;
    const auto *Var = Parents[0].get<clang::VarDecl>();
    if (!Var)
      return nullptr;
    Parents = Ctx.getParents(*Var);
  }
  return nullptr;
}

bool isInside(const clang::Stmt *Inner, const clang::Stmt *Outer, clang::ASTContext &Ctx) {
  for (const clang::Stmt *S = Inner; S; S = parentOf(Ctx, S))
    if (S == Outer)
      return true;
  return false;
}

// `Less < Greater`, or `<=` when not Strict.
struct Fact {
  Poly Less, Greater;
  bool Strict = false;
};

// What one function knows: polynomials of its expressions, and the facts
// that hold at a statement.
class FunctionFacts {
public:
  FunctionFacts(const clang::FunctionDecl &F) : F(F), Ctx(F.getASTContext()) {}

  std::optional<Poly> poly(const clang::Expr *E, int Depth = 0) const {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    if (auto *Cast = llvm::dyn_cast<clang::CastExpr>(E))
      return poly(Cast->getSubExpr(), Depth + 1);
    if (auto *I = llvm::dyn_cast<clang::IntegerLiteral>(E))
      return constant(static_cast<long long>(I->getValue().getLimitedValue(1ll << 40)));
    if (auto *P = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
      if (auto *Ref = llvm::dyn_cast<clang::MSPropertyRefExpr>(
              P->getSyntacticForm()->IgnoreParenImpCasts()))
        if (const clang::DeclRefExpr *Base = builtinIndexBase(*Ref))
          return Poly{{{"+" + Base->getDecl()->getNameAsString() + "." +
                        Ref->getPropertyDecl()->getNameAsString()},
                       1}};
    if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
      auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
      if (!Var || !Var->getType()->isIntegerType())
        return std::nullopt;
      if (!llvm::isa<clang::ParmVarDecl>(Var) && Var->isLocalVarDecl() && Var->getInit() &&
          writesOf(F, Var).empty())
        if (std::optional<Poly> Init = poly(Var->getInit(), Depth + 1))
          return Init;
      return Poly{{{atomName(Var)}, 1}};
    }
    if (auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
      if (U->getOpcode() == clang::UO_Minus)
        if (std::optional<Poly> P = poly(U->getSubExpr(), Depth + 1))
          return plus({}, *P, -1);
      if (U->getOpcode() == clang::UO_Plus)
        return poly(U->getSubExpr(), Depth + 1);
      return std::nullopt;
    }
    auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
    if (!B)
      return std::nullopt;
    std::optional<Poly> L = poly(B->getLHS(), Depth + 1), R = poly(B->getRHS(), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    switch (B->getOpcode()) {
    case clang::BO_Add:
      return plus(*L, *R);
    case clang::BO_Sub:
      return plus(*L, *R, -1);
    case clang::BO_Mul:
      return times(*L, *R);
    default:
      return std::nullopt;
    }
  }

  // The facts a condition gives when it is true (Holds) or false.
  void addCondition(const clang::Expr *Cond, bool Holds, std::vector<Fact> &Out) const {
    Cond = Cond->IgnoreParenImpCasts();
    if (auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond); U && U->getOpcode() == clang::UO_LNot)
      return addCondition(U->getSubExpr(), !Holds, Out);
    auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond);
    if (!B)
      return;
    if ((B->getOpcode() == clang::BO_LAnd && Holds) ||
        (B->getOpcode() == clang::BO_LOr && !Holds)) {
      addCondition(B->getLHS(), Holds, Out);
      addCondition(B->getRHS(), Holds, Out);
      return;
    }
    std::optional<Poly> L = poly(B->getLHS()), R = poly(B->getRHS());
    if (!L || !R)
      return;
    clang::BinaryOperatorKind Op = B->getOpcode();
    if (!Holds) {
      if (Op == clang::BO_LT)
        Op = clang::BO_GE;
      else if (Op == clang::BO_LE)
        Op = clang::BO_GT;
      else if (Op == clang::BO_GT)
        Op = clang::BO_LE;
      else if (Op == clang::BO_GE)
        Op = clang::BO_LT;
      else if (Op == clang::BO_NE)
        Op = clang::BO_EQ;
      else
        return;
    }
    switch (Op) {
    case clang::BO_LT:
      return Out.push_back({*L, *R, true});
    case clang::BO_LE:
      return Out.push_back({*L, *R, false});
    case clang::BO_GT:
      return Out.push_back({*R, *L, true});
    case clang::BO_GE:
      return Out.push_back({*R, *L, false});
    case clang::BO_EQ:
      Out.push_back({*L, *R, false});
      return Out.push_back({*R, *L, false});
    default:
      return;
    }
  }

  // The loop variable of `for (int i = A; i < B; ++i)` written only by the
  // increment, with A and B.
  struct CountedLoop {
    const clang::VarDecl *Var = nullptr;
    Poly From, To;
  };
  std::optional<CountedLoop> countedLoop(const clang::ForStmt &For) const {
    auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(For.getInit());
    auto *Inc = llvm::dyn_cast_or_null<clang::UnaryOperator>(For.getInc());
    if (!Init || !Init->isSingleDecl() || !Inc || !Inc->isIncrementOp())
      return std::nullopt;
    auto *Var = llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl());
    std::vector<const clang::Expr *> Writes =
        Var ? writesOf(F, Var) : std::vector<const clang::Expr *>{};
    if (!Var || !Var->getInit() || Writes.size() != 1 || Writes[0] != Inc)
      return std::nullopt;
    std::optional<Poly> From = poly(Var->getInit());
    auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
    if (!From || !Cond || Cond->getOpcode() != clang::BO_LT)
      return std::nullopt;
    auto *Left = llvm::dyn_cast<clang::DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
    std::optional<Poly> To = poly(Cond->getRHS());
    if (!Left || Left->getDecl() != Var || !To)
      return std::nullopt;
    return CountedLoop{Var, *From, *To};
  }

  // The facts at S: enclosing conditions, earlier early returns, loop
  // bounds and counters.
  std::vector<Fact> factsAt(const clang::Stmt *S, bool WithCounters = true) const {
    std::vector<Fact> Facts;
    for (const clang::Stmt *Child = S, *P = parentOf(Ctx, S); P; Child = P, P = parentOf(Ctx, P)) {
      if (auto *If = llvm::dyn_cast<clang::IfStmt>(P)) {
        if (Child == If->getThen())
          addCondition(If->getCond(), true, Facts);
        else if (Child == If->getElse())
          addCondition(If->getCond(), false, Facts);
      } else if (auto *For = llvm::dyn_cast<clang::ForStmt>(P); For && Child == For->getBody()) {
        if (For->getCond())
          addCondition(For->getCond(), true, Facts);
        if (std::optional<CountedLoop> L = countedLoop(*For))
          Facts.push_back({L->From, Poly{{{atomName(L->Var)}, 1}}, false});
      } else if (auto *While = llvm::dyn_cast<clang::WhileStmt>(P);
                 While && Child == While->getBody()) {
        addCondition(While->getCond(), true, Facts);
      } else if (auto *Block = llvm::dyn_cast<clang::CompoundStmt>(P)) {
        for (const clang::Stmt *Before : Block->body()) {
          if (Before == Child)
            break;
          auto *If = llvm::dyn_cast<clang::IfStmt>(Before);
          if (If && !If->getElse() && !If->getConditionVariable() && returnsOnly(If->getThen()))
            addCondition(If->getCond(), false, Facts);
        }
      }
    }
    if (WithCounters)
      addCounters(Facts);
    return Facts;
  }

  bool provesLess(const Poly &X, const Poly &Y, bool Strict, const std::vector<Fact> &Facts) const {
    long long Need = Strict ? 1 : 0;
    Poly Gap = plus(Y, X, -1);
    if (std::optional<long long> L = lowerBound(Gap); L && *L >= Need)
      return true;
    for (const Fact &Known : Facts) {
      Poly Rest = plus(Gap, plus(Known.Greater, Known.Less, -1), -1);
      if (std::optional<long long> L = lowerBound(Rest); L && *L + (Known.Strict ? 1 : 0) >= Need)
        return true;
    }
    return false;
  }

  const clang::FunctionDecl &function() const { return F; }
  clang::ASTContext &context() const { return Ctx; }

private:
  static bool returnsOnly(const clang::Stmt *S) {
    if (auto *Block = llvm::dyn_cast<clang::CompoundStmt>(S))
      return Block->size() == 1 && returnsOnly(Block->body_front());
    return llvm::isa<clang::ReturnStmt>(S);
  }

  // A local that starts at X and is incremented by one at most once per
  // iteration of a counted loop from A to B (A <= B) stays in [X, X + B - A].
  void addCounters(std::vector<Fact> &Facts) const {
    if (CountersDone) {
      Facts.insert(Facts.end(), Counters.begin(), Counters.end());
      return;
    }
    CountersDone = true;
    struct Locals : clang::RecursiveASTVisitor<Locals> {
      std::vector<const clang::VarDecl *> Vars;
      bool VisitVarDecl(clang::VarDecl *V) {
        if (V->isLocalVarDecl() && V->getInit() && V->getType()->isIntegerType())
          Vars.push_back(V);
        return true;
      }
    } Find;
    Find.TraverseStmt(F.getBody());
    for (const clang::VarDecl *V : Find.Vars) {
      std::vector<const clang::Expr *> Writes = writesOf(F, V);
      auto *Inc = Writes.size() == 1 ? llvm::dyn_cast<clang::UnaryOperator>(Writes[0]) : nullptr;
      std::optional<Poly> Start = poly(V->getInit());
      if (!Inc || !Inc->isIncrementOp() || !Start)
        continue;
      const clang::ForStmt *Loop = nullptr;
      for (const clang::Stmt *P = parentOf(Ctx, Inc); P && !Loop; P = parentOf(Ctx, P)) {
        if (llvm::isa<clang::WhileStmt>(P) || llvm::isa<clang::DoStmt>(P) ||
            llvm::isa<clang::CXXForRangeStmt>(P))
          break;
        Loop = llvm::dyn_cast<clang::ForStmt>(P);
      }
      std::optional<CountedLoop> Counted = Loop ? countedLoop(*Loop) : std::nullopt;
      if (!Counted || Loop->getInc() == Inc || isInside(Inc, Loop->getCond(), Ctx))
        continue;
      std::vector<Fact> AtLoop = factsAt(Loop, /*WithCounters=*/false);
      if (!provesLess(Counted->From, Counted->To, false, AtLoop))
        continue;
      Poly Var{{{atomName(V)}, 1}};
      Counters.push_back({*Start, Var, false});
      Counters.push_back({Var, plus(*Start, plus(Counted->To, Counted->From, -1)), false});
    }
    Facts.insert(Facts.end(), Counters.begin(), Counters.end());
  }

  const clang::FunctionDecl &F;
  clang::ASTContext &Ctx;
  mutable bool CountersDone = false;
  mutable std::vector<Fact> Counters;
};

// The index range [Lo, Hi) over a function's integer parameters.
struct Range {
  Poly Lo, Hi;
  std::string Text;
};

// What a function (with everything it launches and calls) does through one
// pointer parameter.
struct Footprint {
  bool Known = false;
  bool Writes = false;
  std::optional<Range> Within; // none: anywhere
};

// The pointer parameter and the offset of an argument `p`, `p + e`, `&p[e]`.
struct PointerArgument {
  const clang::VarDecl *Base = nullptr;
  Poly Offset;
};

class FootprintAnalysis {
public:
  Footprint of(const clang::FunctionDecl &F, unsigned Param) {
    const clang::FunctionDecl *Def = definition(&F);
    if (!Def)
      return {};
    auto Key = std::make_pair(Def, Param);
    if (auto It = Assumed.find(Key); It != Assumed.end())
      return It->second;
    if (auto It = Done.find(Key); It != Done.end())
      return It->second;
    Footprint Result;
    for (const Range &Candidate : candidates(*Def)) {
      Footprint Try{true, false, Candidate};
      if (check(*Def, Param, Try)) {
        Result = Try;
        break;
      }
    }
    if (!Result.Known) {
      Footprint Anywhere{true, false, std::nullopt};
      if (check(*Def, Param, Anywhere) && !Anywhere.Writes)
        Result = Anywhere;
    }
    Done[Key] = Result;
    return Result;
  }

  // Whether a function touches memory only through its parameters: no
  // global variable, and only callees with the same property (or without a
  // body and without pointer arguments, such as math functions).
  bool onlyThroughParameters(const clang::FunctionDecl &F) {
    const clang::FunctionDecl *Def = definition(&F);
    if (!Def)
      return false;
    if (auto [It, New] = Local.insert({Def, true}); !New)
      return It->second;
    struct Scan : clang::RecursiveASTVisitor<Scan> {
      FootprintAnalysis *Self;
      bool Ok = true;
      bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
        if (auto *V = llvm::dyn_cast<clang::VarDecl>(E->getDecl()))
          if (V->hasGlobalStorage() && !V->getType().isConstQualified() &&
              !isBuiltinIndexVariable(V))
            Ok = false;
        return true;
      }
      std::set<const clang::CallExpr *> Configurations;
      bool VisitCallExpr(clang::CallExpr *C) {
        // A launch's configuration call hands the stream to the runtime.
        if (auto *Launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(C))
          Configurations.insert(Launch->getConfig());
        if (Configurations.count(C))
          return true;
        const clang::FunctionDecl *Callee = calleeOf(C);
        if (Callee && definition(Callee))
          Ok &= Self->onlyThroughParameters(*Callee);
        else
          for (const clang::Expr *Arg : C->arguments())
            Ok &= !Arg->getType()->isPointerType() && !Arg->getType()->isReferenceType();
        return true;
      }
    } S;
    S.Self = this;
    S.TraverseStmt(Def->getBody());
    Local[Def] = S.Ok;
    return S.Ok;
  }

  static const clang::FunctionDecl *definition(const clang::FunctionDecl *F) {
    if (!F)
      return nullptr;
    if (const clang::FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
      F = Pattern;
    const clang::FunctionDecl *Def = nullptr;
    return F->hasBody(Def) ? Def : nullptr;
  }

  static const clang::FunctionDecl *calleeOf(const clang::CallExpr *C) {
    if (auto *K = llvm::dyn_cast<clang::CUDAKernelCallExpr>(C))
      if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(launchedKernel(*K)))
        return llvm::dyn_cast<clang::FunctionDecl>(Ref->getDecl());
    return C->getDirectCallee();
  }

  static std::optional<PointerArgument> pointerArgument(const FunctionFacts &Facts,
                                                        const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
      if (auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
          V && V->getType()->isPointerType())
        return PointerArgument{V, {}};
    if (auto *B = llvm::dyn_cast<clang::BinaryOperator>(E); B && B->getOpcode() == clang::BO_Add)
      for (auto [Pointer, Index] :
           {std::pair(B->getLHS(), B->getRHS()), std::pair(B->getRHS(), B->getLHS())})
        if (Pointer->getType()->isPointerType())
          if (std::optional<PointerArgument> A = pointerArgument(Facts, Pointer))
            if (std::optional<Poly> Offset = Facts.poly(Index))
              return PointerArgument{A->Base, plus(A->Offset, *Offset)};
    if (auto *U = llvm::dyn_cast<clang::UnaryOperator>(E); U && U->getOpcode() == clang::UO_AddrOf)
      if (auto *S = llvm::dyn_cast<clang::ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
        if (std::optional<PointerArgument> A = pointerArgument(Facts, S->getBase()))
          if (std::optional<Poly> Offset = Facts.poly(S->getIdx()))
            return PointerArgument{A->Base, plus(A->Offset, *Offset)};
    return std::nullopt;
  }

  // The range a call's callee footprint covers in the caller, over the
  // caller's names: the callee's range with its parameters replaced by the
  // call's arguments, shifted by the pointer argument's offset.
  static std::optional<Range> rangeAtCall(const FunctionFacts &Facts, const clang::CallExpr &Call,
                                          const clang::FunctionDecl &Callee, const Range &R,
                                          const Poly &Offset) {
    auto Substitute = [&](const Poly &P) -> std::optional<Poly> {
      Poly Out;
      for (const auto &[M, C] : P) {
        Poly Term = constant(C);
        for (const std::string &Atom : M) {
          std::optional<Poly> Value;
          for (unsigned I = 0; I < Callee.getNumParams() && I < Call.getNumArgs(); ++I)
            if (atomName(Callee.getParamDecl(I)) == Atom)
              Value = Facts.poly(Call.getArg(I));
          if (!Value)
            return std::nullopt;
          Term = times(Term, *Value);
        }
        Out = plus(Out, Term);
      }
      return plus(Out, Offset);
    };
    std::optional<Poly> Lo = Substitute(R.Lo), Hi = Substitute(R.Hi);
    if (!Lo || !Hi)
      return std::nullopt;
    return Range{*Lo, *Hi, R.Text};
  }

private:
  static std::vector<Range> candidates(const clang::FunctionDecl &F) {
    std::vector<const clang::ParmVarDecl *> Ints;
    for (const clang::ParmVarDecl *P : F.parameters())
      if (P->getType()->isIntegerType())
        Ints.push_back(P);
    std::vector<Range> Out;
    auto Atom = [](const clang::ParmVarDecl *P) { return Poly{{{atomName(P)}, 1}}; };
    for (const clang::ParmVarDecl *A : Ints)
      for (const clang::ParmVarDecl *B : Ints)
        if (A != B) {
          std::string Names = A->getNameAsString() + ", " + B->getNameAsString();
          Out.push_back({Atom(A), Atom(B), "[" + Names + ")"});
          Out.push_back({Atom(A), plus(Atom(B), constant(1)), "[" + Names + "]"});
        }
    for (const clang::ParmVarDecl *N : Ints)
      Out.push_back({{}, Atom(N), "[0, " + N->getNameAsString() + ")"});
    return Out;
  }

  // Whether every use of parameter Param of F stays within Claim (assumed
  // for F itself meanwhile); sets Claim.Writes.
  bool check(const clang::FunctionDecl &F, unsigned Param, Footprint &Claim) {
    auto Key = std::make_pair(&F, Param);
    Assumed[Key] = Claim;
    struct Uses : clang::RecursiveASTVisitor<Uses> {
      const clang::ParmVarDecl *P;
      std::vector<const clang::DeclRefExpr *> Refs;
      bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
        if (E->getDecl() == P)
          Refs.push_back(E);
        return true;
      }
    } Find;
    Find.P = F.getParamDecl(Param);
    Find.TraverseStmt(F.getBody());
    FunctionFacts Facts(F);
    bool Ok = !isWrittenIn(&F, Find.P);
    for (const clang::DeclRefExpr *Ref : Find.Refs)
      if (Ok)
        Ok = checkUse(Facts, *Ref, Claim);
    Assumed.erase(Key);
    return Ok;
  }

  bool checkUse(const FunctionFacts &Facts, const clang::DeclRefExpr &Ref, Footprint &Claim) {
    clang::ASTContext &Ctx = Facts.context();
    // Up through implicit casts and parentheses, and `p + e` / `&p[e]`
    // when they are a call's argument.
    const clang::Stmt *Use = &Ref;
    const clang::Stmt *P = parentOf(Ctx, Use);
    while (P && (llvm::isa<clang::ImplicitCastExpr>(P) || llvm::isa<clang::ParenExpr>(P))) {
      Use = P;
      P = parentOf(Ctx, P);
    }
    if (auto *S = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(P); S && S->getBase() == Use) {
      const clang::Stmt *Access = S, *Above = parentOf(Ctx, S);
      while (Above && llvm::isa<clang::ParenExpr>(Above))
        Access = Above, Above = parentOf(Ctx, Above);
      bool Write = false;
      if (auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Above))
        Write = B->isAssignmentOp() && B->getLHS() == Access;
      else if (auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Above))
        Write = U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_AddrOf;
      if (auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Above);
          U && U->getOpcode() == clang::UO_AddrOf)
        return checkArgument(Facts, U, Claim);
      Claim.Writes |= Write;
      if (!Claim.Within)
        return true;
      std::optional<Poly> Index = Facts.poly(S->getIdx());
      std::vector<Fact> Known = Facts.factsAt(S);
      return Index && Facts.provesLess(Claim.Within->Lo, *Index, false, Known) &&
             Facts.provesLess(*Index, Claim.Within->Hi, true, Known);
    }
    if (auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(P);
        B && B->getOpcode() == clang::BO_Add)
      return checkArgument(Facts, B, Claim);
    return checkArgument(Facts, Use, Claim);
  }

  // Use (the pointer, `p + e` or `&p[e]`) must be a whole argument of a call.
  bool checkArgument(const FunctionFacts &Facts, const clang::Stmt *Use, Footprint &Claim) {
    clang::ASTContext &Ctx = Facts.context();
    const clang::Stmt *P = parentOf(Ctx, Use);
    while (P && (llvm::isa<clang::ImplicitCastExpr>(P) || llvm::isa<clang::ParenExpr>(P))) {
      Use = P;
      P = parentOf(Ctx, P);
    }
    auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(P);
    const clang::FunctionDecl *Callee = Call ? calleeOf(Call) : nullptr;
    if (!Callee || !definition(Callee))
      return false;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
      if (Call->getArg(I) != Use)
        continue;
      std::optional<PointerArgument> Argument =
          pointerArgument(Facts, llvm::cast<clang::Expr>(Use));
      Footprint Inner = of(*Callee, I);
      if (!Argument || !Inner.Known)
        return false;
      Claim.Writes |= Inner.Writes;
      if (!Claim.Within)
        return true;
      if (!Inner.Within)
        return false;
      std::optional<Range> At =
          rangeAtCall(Facts, *Call, *definition(Callee), *Inner.Within, Argument->Offset);
      std::vector<Fact> Known = Facts.factsAt(Call);
      return At && Facts.provesLess(Claim.Within->Lo, At->Lo, false, Known) &&
             Facts.provesLess(At->Hi, Claim.Within->Hi, false, Known);
    }
    return false;
  }

  std::map<std::pair<const clang::FunctionDecl *, unsigned>, Footprint> Assumed, Done;
  std::map<const clang::FunctionDecl *, bool> Local;
};

// Whether the parent writes a variable of P after Launch begins (or at all,
// for a launch in a loop, where the order does not tell).
bool changesAfter(const clang::FunctionDecl &Parent, const Poly &P, const clang::Stmt &Launch,
                  const std::map<std::string, const clang::VarDecl *> &Vars) {
  const clang::SourceManager &SM = Parent.getASTContext().getSourceManager();
  for (const auto &[M, C] : P)
    for (const std::string &Atom : M) {
      auto It = Vars.find(Atom);
      if (It == Vars.end())
        return Atom.find('@') != std::string::npos; // a variable of another function
      for (const clang::Expr *W : writesOf(Parent, It->second))
        if (!SM.isBeforeInTranslationUnit(W->getBeginLoc(), Launch.getBeginLoc()))
          return true;
    }
  return false;
}

} // namespace

std::optional<std::string> proveIndependentOfEarlierLaunches(const LaunchAnalysis &A,
                                                             const LaunchSite &Site) {
  if (!Site.Child || !Site.Parent || !Site.Parent->getBody())
    return std::nullopt;
  std::vector<const LaunchSite *> Earlier;
  for (unsigned I : A.SitesByParent.at(Site.Parent)) {
    const LaunchSite &E = A.Sites[I];
    bool Ordered = E.StreamKind == LaunchStream::Default || E.StreamKind == LaunchStream::Named;
    if (Ordered && (E.Id < Site.Id || Site.InLoop))
      Earlier.push_back(&E);
  }
  FootprintAnalysis Footprints;
  FunctionFacts ParentFacts(*Site.Parent);
  std::map<std::string, const clang::VarDecl *> ParentVars;
  for (const clang::ParmVarDecl *P : Site.Parent->parameters())
    ParentVars[atomName(P)] = P;
  struct Locals : clang::RecursiveASTVisitor<Locals> {
    std::map<std::string, const clang::VarDecl *> *Vars;
    bool VisitVarDecl(clang::VarDecl *V) {
      (*Vars)[atomName(V)] = V;
      return true;
    }
  } FindLocals;
  FindLocals.Vars = &ParentVars;
  FindLocals.TraverseStmt(Site.Parent->getBody());

  std::vector<std::string> Reasons;
  for (const LaunchSite *E : Earlier) {
    if (!E->Child)
      return std::nullopt;
    // Memory reached otherwise than through a pointer argument (a global, a
    // struct holding a pointer) is out of the proof's sight.
    for (const LaunchSite *L : {E, &Site}) {
      if (!Footprints.onlyThroughParameters(*L->Child))
        return std::nullopt;
      for (const clang::Expr *Arg : L->Arguments) {
        clang::QualType T = Arg->getType();
        if (!T->isPointerType() && !T->isArithmeticType() && !T->isEnumeralType())
          return std::nullopt;
      }
    }
    bool InLoop = Site.InLoop || E->InLoop;
    for (unsigned I = 0; I < E->Arguments.size(); ++I) {
      if (!E->Arguments[I]->getType()->isPointerType())
        continue;
      for (unsigned J = 0; J < Site.Arguments.size(); ++J) {
        if (!Site.Arguments[J]->getType()->isPointerType())
          continue;
        Footprint First = Footprints.of(*E->Child, I), Second = Footprints.of(*Site.Child, J);
        if (!First.Known || !Second.Known)
          return std::nullopt;
        if (!First.Writes && !Second.Writes)
          continue;
        std::optional<PointerArgument> PA =
            FootprintAnalysis::pointerArgument(ParentFacts, E->Arguments[I]);
        std::optional<PointerArgument> PB =
            FootprintAnalysis::pointerArgument(ParentFacts, Site.Arguments[J]);
        if (InLoop || !PA || !PB || PA->Base != PB->Base || !First.Within || !Second.Within)
          return std::nullopt;
        const clang::FunctionDecl *CA = FootprintAnalysis::definition(E->Child);
        const clang::FunctionDecl *CB = FootprintAnalysis::definition(Site.Child);
        std::optional<Range> RA =
            FootprintAnalysis::rangeAtCall(ParentFacts, *E->Call, *CA, *First.Within, PA->Offset);
        std::optional<Range> RB = FootprintAnalysis::rangeAtCall(ParentFacts, *Site.Call, *CB,
                                                                 *Second.Within, PB->Offset);
        if (!RA || !RB)
          return std::nullopt;
        for (const Poly *P : {&RA->Lo, &RA->Hi, &RB->Lo, &RB->Hi})
          if (changesAfter(*Site.Parent, *P, *E->Call, ParentVars))
            return std::nullopt;
        bool Disjoint = ParentFacts.provesLess(RA->Hi, RB->Lo, false, {}) ||
                        ParentFacts.provesLess(RB->Hi, RA->Lo, false, {});
        if (!Disjoint)
          return std::nullopt;
        Reasons.push_back("'" + PA->Base->getNameAsString() + "' in disjoint ranges: [" +
                          polyText(RA->Lo) + ", " + polyText(RA->Hi) + ") by the launch at line " +
                          std::to_string(E->Position.Line) + ", [" + polyText(RB->Lo) + ", " +
                          polyText(RB->Hi) + ") by this one (each child stays within " +
                          Second.Within->Text + " of its parameters)");
      }
    }
    Reasons.push_back("the launch at line " + std::to_string(E->Position.Line) +
                      " shares no array this child writes or that it writes");
  }
  if (Earlier.empty())
    return std::nullopt;
  // The disjoint ranges are the proof where there are any; else the reads.
  std::vector<std::string> Ranges;
  for (const std::string &R : Reasons)
    if (R.find("disjoint ranges") != std::string::npos)
      Ranges.push_back(R);
  const std::vector<std::string> &Said = Ranges.empty() ? Reasons : Ranges;
  std::string Proof = "independent of the earlier launches into the same stream: ";
  for (size_t I = 0; I < Said.size(); ++I)
    Proof += (I ? "; " : "") + Said[I];
  return Proof;
}

} // namespace launchopt

#include "FunctionFacts.h"

#include "KernelFeatures.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace launchopt {

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

std::optional<Poly> FunctionFacts::poly(const clang::Expr *E, int Depth) const {
  if (!E || Depth > 16)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (auto *Cast = llvm::dyn_cast<clang::CastExpr>(E))
    return poly(Cast->getSubExpr(), Depth + 1);
  if (auto *I = llvm::dyn_cast<clang::IntegerLiteral>(E))
    return constant(static_cast<long long>(I->getValue().getLimitedValue(1ll << 40)));
  if (auto *P = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
    if (auto *Ref =
            llvm::dyn_cast<clang::MSPropertyRefExpr>(P->getSyntacticForm()->IgnoreParenImpCasts()))
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

void FunctionFacts::addCondition(const clang::Expr *Cond, bool Holds,
                                 std::vector<Fact> &Out) const {
  Cond = Cond->IgnoreParenImpCasts();
  if (auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond); U && U->getOpcode() == clang::UO_LNot)
    return addCondition(U->getSubExpr(), !Holds, Out);
  auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond);
  if (!B)
    return;
  if ((B->getOpcode() == clang::BO_LAnd && Holds) || (B->getOpcode() == clang::BO_LOr && !Holds)) {
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

std::optional<FunctionFacts::CountedLoop>
FunctionFacts::countedLoop(const clang::ForStmt &For) const {
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

std::vector<Fact> FunctionFacts::factsAt(const clang::Stmt *S, bool WithCounters) const {
  std::vector<Fact> Facts;
  for (const clang::Stmt *Child = S, *P = parentOf(Ctx, S); P; Child = P, P = parentOf(Ctx, P)) {
    if (auto *If = llvm::dyn_cast<clang::IfStmt>(P)) {
      if (Child == If->getThen())
        addCondition(If->getCond(), true, Facts);
      else if (Child == If->getElse())
        addCondition(If->getCond(), false, Facts);
    } else if (auto *Logic = llvm::dyn_cast<clang::BinaryOperator>(P);
               Logic && Logic->isLogicalOp() && Child == Logic->getRHS()) {
      // The right operand is evaluated only when the left one decided nothing.
      addCondition(Logic->getLHS(), Logic->getOpcode() == clang::BO_LAnd, Facts);
    } else if (auto *Choice = llvm::dyn_cast<clang::ConditionalOperator>(P)) {
      if (Child == Choice->getTrueExpr())
        addCondition(Choice->getCond(), true, Facts);
      else if (Child == Choice->getFalseExpr())
        addCondition(Choice->getCond(), false, Facts);
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

bool FunctionFacts::provesLess(const Poly &X, const Poly &Y, bool Strict,
                               const std::vector<Fact> &Facts) const {
  long long Need = Strict ? 1 : 0;
  Poly Gap = plus(Y, X, -1);
  if (std::optional<long long> L = lowerBound(Gap); L && *L >= Need)
    return true;
  // Gap minus what one fact, or two chained facts, guarantee.
  for (size_t I = 0; I < Facts.size(); ++I) {
    Poly Rest = plus(Gap, plus(Facts[I].Greater, Facts[I].Less, -1), -1);
    if (std::optional<long long> L = lowerBound(Rest); L && *L + Facts[I].Strict >= Need)
      return true;
    for (size_t J = I + 1; J < Facts.size(); ++J) {
      Poly Both = plus(Rest, plus(Facts[J].Greater, Facts[J].Less, -1), -1);
      if (std::optional<long long> L = lowerBound(Both);
          L && *L + Facts[I].Strict + Facts[J].Strict >= Need)
        return true;
    }
  }
  return false;
}

bool FunctionFacts::returnsOnly(const clang::Stmt *S) {
  if (auto *Block = llvm::dyn_cast<clang::CompoundStmt>(S))
    return Block->size() == 1 && returnsOnly(Block->body_front());
  return llvm::isa<clang::ReturnStmt>(S);
}

// The variables a statement reads.
static std::vector<const clang::VarDecl *> variablesIn(const clang::Stmt *S) {
  struct Refs : clang::RecursiveASTVisitor<Refs> {
    std::vector<const clang::VarDecl *> Vars;
    bool VisitDeclRefExpr(clang::DeclRefExpr *R) {
      if (auto *V = llvm::dyn_cast<clang::VarDecl>(R->getDecl()))
        Vars.push_back(V);
      return true;
    }
  } Find;
  Find.TraverseStmt(const_cast<clang::Stmt *>(S));
  return Find.Vars;
}

// Whether no variable that E reads is written inside Scope.
bool FunctionFacts::constantIn(const clang::Expr *E, const clang::Stmt *Scope) const {
  for (const clang::VarDecl *Read : variablesIn(E))
    for (const clang::Expr *W : writesOf(F, Read))
      if (isInside(W, Scope, Ctx))
        return false;
  return true;
}

// Whether no variable of P is written inside Scope (a built-in index, an
// atom without '@', is constant).
bool FunctionFacts::constantIn(const Poly &P, const clang::Stmt *Scope) const {
  std::map<std::string, const clang::VarDecl *> Variables;
  for (const clang::ParmVarDecl *Param : F.parameters())
    Variables[atomName(Param)] = Param;
  for (const clang::VarDecl *Var : variablesIn(F.getBody()))
    Variables[atomName(Var)] = Var;
  for (const auto &[Monomial, Coefficient] : P)
    for (const std::string &Atom : Monomial) {
      auto It = Variables.find(Atom);
      if (It == Variables.end()) {
        if (Atom.find('@') != std::string::npos)
          return false;
        continue;
      }
      for (const clang::Expr *W : writesOf(F, It->second))
        if (isInside(W, Scope, Ctx))
          return false;
    }
  return true;
}

// The facts a step of V may lean on: the conditions of the ifs around it
// and of the innermost loop it is in, all checked in the same iteration as
// the step (a condition checked before an inner loop would be stale).
std::vector<Fact> FunctionFacts::factsAtStep(const clang::Stmt *Step) const {
  std::vector<Fact> Facts;
  for (const clang::Stmt *Child = Step, *P = parentOf(Ctx, Step); P;
       Child = P, P = parentOf(Ctx, P)) {
    if (auto *If = llvm::dyn_cast<clang::IfStmt>(P)) {
      if (Child == If->getThen())
        addCondition(If->getCond(), true, Facts);
      else if (Child == If->getElse())
        addCondition(If->getCond(), false, Facts);
    } else if (auto *While = llvm::dyn_cast<clang::WhileStmt>(P)) {
      if (Child == While->getBody())
        addCondition(While->getCond(), true, Facts);
      break;
    } else if (auto *For = llvm::dyn_cast<clang::ForStmt>(P)) {
      if (Child == For->getBody() && For->getCond())
        addCondition(For->getCond(), true, Facts);
      break;
    } else if (llvm::isa<clang::DoStmt>(P) || llvm::isa<clang::CXXForRangeStmt>(P)) {
      break;
    }
  }
  return Facts;
}

// A local V whose every write steps it one way by one (`--j`, or `++j`),
// with what V starts at constant while V lives, stays at or below (above)
// its start: `j <= i - 1` in an insertion sort's inner loop. When each step
// down happens where a condition says V >= L, with L constant while V lives
// and V's start at least L - 1, V never goes below L - 1 (and the same
// upward).
void FunctionFacts::addMonotone(const clang::VarDecl *V,
                                const std::vector<const clang::Expr *> &Writes,
                                std::vector<Fact> &Out) const {
  if (Writes.empty())
    return;
  bool Down = true, Up = true;
  for (const clang::Expr *W : Writes) {
    auto *Step = llvm::dyn_cast<clang::UnaryOperator>(W);
    Down &= Step && Step->isDecrementOp();
    Up &= Step && Step->isIncrementOp();
  }
  std::optional<Poly> Start = poly(V->getInit());
  const clang::Stmt *Declaration = parentOf(Ctx, V->getInit());
  const clang::Stmt *Scope = Declaration ? parentOf(Ctx, Declaration) : nullptr;
  if ((!Down && !Up) || !Start || !Scope || !constantIn(V->getInit(), Scope))
    return;
  Poly Var{{{atomName(V)}, 1}};
  Out.push_back(Down ? Fact{Var, *Start, false} : Fact{*Start, Var, false});
  // The bound on the other side: the same L at every step.
  std::optional<Poly> Bound;
  for (const clang::Expr *W : Writes) {
    std::optional<Poly> Here;
    for (const Fact &Known : factsAtStep(W)) {
      // Down: L <= V (L < V gives L + 1 <= V); up: V <= U (V < U: V <= U - 1).
      const Poly &Side = Down ? Known.Greater : Known.Less;
      if (Side != Var)
        continue;
      Poly Other = Down ? Known.Less : Known.Greater;
      if (Known.Strict)
        Other = plus(Other, constant(Down ? 1 : -1));
      Here = Other;
      break;
    }
    if (!Here || (Bound && *Bound != *Here))
      return;
    Bound = Here;
  }
  if (!constantIn(*Bound, Scope))
    return;
  Poly Edge = plus(*Bound, constant(Down ? -1 : 1));
  std::vector<Fact> AtStart = factsAt(Declaration, /*WithCounters=*/false);
  if (Down ? !provesLess(Edge, *Start, false, AtStart) : !provesLess(*Start, Edge, false, AtStart))
    return;
  Out.push_back(Down ? Fact{Edge, Var, false} : Fact{Var, Edge, false});
}

// A local that starts at X and is incremented by one at most once per
// iteration of a counted loop from A to B (A <= B) stays in [X, X + B - A].
void FunctionFacts::addCounters(std::vector<Fact> &Facts) const {
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
    addMonotone(V, Writes, Counters);
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

} // namespace launchopt

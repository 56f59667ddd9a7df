#include "PointerFootprint.h"

#include "KernelFeatures.h"
#include "LaunchSites.h"
#include "SourceText.h"
#include "VariableWrites.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace launchopt {

std::optional<std::string> commutingAtomic(const clang::FunctionDecl &F) {
  if (!F.getIdentifier() || !F.getASTContext().getSourceManager().isInSystemHeader(F.getLocation()))
    return std::nullopt;
  llvm::StringRef Name = F.getName();
  for (llvm::StringRef Scope : {"_block", "_system"})
    Name.consume_back(Scope);
  if (Name == "atomicAdd" || Name == "atomicSub")
    return std::string("add");
  for (llvm::StringRef Kind : {"atomicOr", "atomicAnd", "atomicXor", "atomicMax", "atomicMin"})
    if (Name == Kind)
      return Kind.drop_front(6).lower();
  return std::nullopt;
}

namespace {

// Whether a call's value is unused: a statement of its own, in a block or as
// the body of an if or a loop.
bool valueUnused(clang::ASTContext &Ctx, const clang::CallExpr &Call) {
  const clang::Stmt *Above = parentOf(Ctx, &Call);
  if (auto *If = llvm::dyn_cast_or_null<clang::IfStmt>(Above))
    return If->getThen() == &Call || If->getElse() == &Call;
  if (auto *For = llvm::dyn_cast_or_null<clang::ForStmt>(Above))
    return For->getBody() == &Call || For->getInc() == &Call;
  if (auto *While = llvm::dyn_cast_or_null<clang::WhileStmt>(Above))
    return While->getBody() == &Call;
  if (auto *Do = llvm::dyn_cast_or_null<clang::DoStmt>(Above))
    return Do->getBody() == &Call;
  return llvm::isa_and_nonnull<clang::CompoundStmt>(Above);
}

// The statement above S past implicit casts and parentheses; S becomes the
// outermost of those.
const clang::Stmt *aboveParensAndCasts(clang::ASTContext &Ctx, const clang::Stmt *&S) {
  const clang::Stmt *P = parentOf(Ctx, S);
  while (P && (llvm::isa<clang::ImplicitCastExpr>(P) || llvm::isa<clang::ParenExpr>(P))) {
    S = P;
    P = parentOf(Ctx, P);
  }
  return P;
}

// Whether Ref (a global) is the operand of `&g` given to atomicAdd or
// atomicSub as its pointer, with the value unused: such updates commute with
// each other, so a global that every child reaches only so (a counter of
// failures) does not order them.
bool addedToAtomically(const clang::DeclRefExpr &Ref, clang::ASTContext &Ctx) {
  const clang::Stmt *Use = &Ref;
  auto *AddrOf = llvm::dyn_cast_or_null<clang::UnaryOperator>(aboveParensAndCasts(Ctx, Use));
  if (!AddrOf || AddrOf->getOpcode() != clang::UO_AddrOf)
    return false;
  Use = AddrOf;
  auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(aboveParensAndCasts(Ctx, Use));
  std::optional<std::string> Kind =
      Call && Call->getDirectCallee() ? commutingAtomic(*Call->getDirectCallee()) : std::nullopt;
  return Kind && *Kind == "add" && Call->getNumArgs() > 0 && Call->getArg(0) == Use &&
         Ref.getType()->isIntegerType() && valueUnused(Ctx, *Call);
}

// Whether the element access Access (under Above) only loads the element:
// converted to a value, cast to a non-reference type, an operand of an
// operator other than an assignment's left, or an index.
bool readsOnly(const clang::Stmt &Access, const clang::Stmt *Above) {
  if (auto *Load = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(Above))
    return Load->getCastKind() == clang::CK_LValueToRValue;
  if (auto *Cast = llvm::dyn_cast_or_null<clang::ExplicitCastExpr>(Above))
    return !Cast->getType()->isReferenceType() && !Cast->getType()->isDependentType() &&
           !Cast->getType()->isPointerType();
  if (auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Above))
    return !B->isAssignmentOp() || B->getRHS() == &Access;
  if (auto *S = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(Above))
    return S->getIdx() == &Access;
  return false;
}

} // namespace

Footprint FootprintAnalysis::of(const clang::FunctionDecl &F, unsigned Param) {
  const clang::FunctionDecl *Def = definition(&F);
  if (!Def)
    return {};
  auto Key = std::make_pair(Def, Param);
  if (auto It = Assumed.find(Key); It != Assumed.end()) {
    AssumptionsUsed.insert(Key);
    return It->second;
  }
  if (auto It = Done.find(Key); It != Done.end())
    return It->second;
  // The claim of a caller being checked keeps its failing use.
  std::string CallerFailure = std::move(FailedUse);
  std::set<FunctionParameter> CallerAssumptions = std::move(AssumptionsUsed);
  AssumptionsUsed.clear();
  Footprint Result;
  std::string FirstCandidateFailure;
  std::vector<Range> Candidates = candidates(*Def);
  for (size_t C = 0; C < Candidates.size(); ++C) {
    Footprint Try;
    Try.Known = true;
    Try.Within = Candidates[C];
    FailedUse.clear();
    if (check(*Def, Param, Try)) {
      Result = Try;
      break;
    }
    if (C == 0)
      FirstCandidateFailure = Candidates[C].Text + " fails at " + FailedUse;
  }
  if (!Result.Known) {
    Footprint Anywhere;
    Anywhere.Known = true;
    FailedUse.clear();
    if (check(*Def, Param, Anywhere)) {
      Result = Anywhere;
      Result.Unproved = Candidates.empty()
                            ? "'" + Def->getNameAsString() + "' has no integer parameters"
                            : FirstCandidateFailure;
    } else {
      Result.Unproved = FailedUse;
    }
  }
  FailedUse = std::move(CallerFailure);
  // A footprint that leaned on the claim of a function still being checked
  // (mutual recursion) holds only within that check: it is not kept.
  AssumptionsUsed.erase(Key);
  if (AssumptionsUsed.empty())
    Done[Key] = Result;
  AssumptionsUsed.insert(CallerAssumptions.begin(), CallerAssumptions.end());
  return Result;
}

bool FootprintAnalysis::onlyThroughParameters(const clang::FunctionDecl &F) {
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
        // Shared memory belongs to one block of one grid: children never share it.
        if (V->hasGlobalStorage() && !V->getType().isConstQualified() &&
            !isBuiltinIndexVariable(V) && !V->hasAttr<clang::CUDASharedAttr>() &&
            !addedToAtomically(*E, V->getASTContext()))
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
      // An atomic's pointer is a parameter's, checked by the footprint.
      if (Callee && commutingAtomic(*Callee))
        return true;
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

const clang::FunctionDecl *FootprintAnalysis::definition(const clang::FunctionDecl *F) {
  if (!F)
    return nullptr;
  if (const clang::FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  const clang::FunctionDecl *Def = nullptr;
  return F->hasBody(Def) ? Def : nullptr;
}

const clang::FunctionDecl *FootprintAnalysis::calleeOf(const clang::CallExpr *C) {
  if (auto *K = llvm::dyn_cast<clang::CUDAKernelCallExpr>(C))
    return launchedFunction(*K);
  return C->getDirectCallee();
}

std::optional<PointerArgument> FootprintAnalysis::pointerArgument(const FunctionFacts &Facts,
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

std::optional<Range> FootprintAnalysis::rangeAtCall(const FunctionFacts &Facts,
                                                    const clang::CallExpr &Call,
                                                    const clang::FunctionDecl &Callee,
                                                    const Range &R, const Poly &Offset) {
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

std::vector<Range> FootprintAnalysis::candidates(const clang::FunctionDecl &F) {
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
// for F itself meanwhile); sets what Claim says of the accesses.
bool FootprintAnalysis::check(const clang::FunctionDecl &F, unsigned Param, Footprint &Claim) {
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
  bool Ok = !isWrittenIn(&F, Find.P) ||
            failAt(Facts, *F.getBody(), "'" + Find.P->getNameAsString() + "' is assigned");
  for (const clang::DeclRefExpr *Ref : Find.Refs)
    if (Ok)
      Ok = checkUse(Facts, *Ref, Claim);
  Assumed.erase(Key);
  return Ok;
}

bool FootprintAnalysis::checkUse(const FunctionFacts &Facts, const clang::DeclRefExpr &Ref,
                                 Footprint &Claim) {
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
    if (auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Above);
        U && U->getOpcode() == clang::UO_AddrOf)
      return checkArgument(Facts, U, Claim);
    // A const scalar cannot be written (a const struct's mutable member can).
    bool ConstScalar = S->getType().isConstQualified() && S->getType()->isScalarType();
    Claim.Writes |= !ConstScalar && !readsOnly(*Access, Above);
    Claim.PlainAccess = true;
    if (!Claim.Within)
      return true;
    std::optional<Poly> Index = Facts.poly(S->getIdx());
    std::vector<Fact> Known = Facts.factsAt(S);
    return (Index && Facts.provesLess(Claim.Within->Lo, *Index, false, Known) &&
            Facts.provesLess(*Index, Claim.Within->Hi, true, Known)) ||
           failAt(Facts, *S);
  }
  if (auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(P);
      B && B->getOpcode() == clang::BO_Add)
    return checkArgument(Facts, B, Claim);
  return checkArgument(Facts, Use, Claim);
}

// Use (the pointer, `p + e` or `&p[e]`) must be a whole argument of a call.
bool FootprintAnalysis::checkArgument(const FunctionFacts &Facts, const clang::Stmt *Use,
                                      Footprint &Claim) {
  clang::ASTContext &Ctx = Facts.context();
  const clang::Stmt *P = parentOf(Ctx, Use);
  while (P && (llvm::isa<clang::ImplicitCastExpr>(P) || llvm::isa<clang::ParenExpr>(P))) {
    Use = P;
    P = parentOf(Ctx, P);
  }
  auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(P);
  const clang::FunctionDecl *Callee = Call ? calleeOf(Call) : nullptr;
  if (!Callee)
    return failAt(Facts, *(P ? P : Use), "not an element access nor a call's argument");
  std::optional<PointerArgument> Argument = pointerArgument(Facts, llvm::cast<clang::Expr>(Use));
  if (Call->getNumArgs() > 0 && Call->getArg(0) == Use && commutingAtomic(*Callee))
    return checkAtomic(Facts, *Call, Argument, Claim);
  if (!definition(Callee))
    return failAt(Facts, *Call, "'" + Callee->getNameAsString() + "' has no body here");
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
    if (Call->getArg(I) != Use)
      continue;
    if (!Argument && Claim.Within)
      return failAt(Facts, *Call, "an offset that is not a polynomial of integer variables");
    Footprint Inner = of(*Callee, I);
    if (!Inner.Known)
      return failAt(Facts, *Call, "in '" + Callee->getNameAsString() + "': " + Inner.Unproved);
    Claim.Writes |= Inner.Writes;
    Claim.PlainAccess |= Inner.PlainAccess;
    Claim.Atomics.insert(Inner.Atomics.begin(), Inner.Atomics.end());
    if (!Claim.Within)
      return true;
    if (!Inner.Within)
      return failAt(Facts, *Call, "where " + Inner.Unproved);
    std::optional<Range> At =
        rangeAtCall(Facts, *Call, *definition(Callee), *Inner.Within, Argument->Offset);
    std::vector<Fact> Known = Facts.factsAt(Call);
    return (At && Facts.provesLess(Claim.Within->Lo, At->Lo, false, Known) &&
            Facts.provesLess(At->Hi, Claim.Within->Hi, false, Known)) ||
           failAt(Facts, *Call, "whose accesses stay in " + Inner.Within->Text);
  }
  return failAt(Facts, *Call, "a variadic argument");
}

// Atomic read-modify-writes of one kind on integers commute when nothing
// uses the value they return: the value the array ends with does not depend
// on their order (float additions round differently in another order).
bool FootprintAnalysis::checkAtomic(const FunctionFacts &Facts, const clang::CallExpr &Call,
                                    const std::optional<PointerArgument> &Argument,
                                    Footprint &Claim) {
  clang::ASTContext &Ctx = Facts.context();
  // A statement of its own: in a block, or the body of an if or a loop.
  bool Integer = Call.getArg(0)->getType()->getPointeeType()->isIntegerType();
  Claim.Writes = true;
  if (valueUnused(Ctx, Call) && Integer)
    Claim.Atomics.insert(*commutingAtomic(*Call.getDirectCallee()));
  else
    Claim.PlainAccess = true;
  if (!Claim.Within)
    return true;
  std::vector<Fact> Known = Facts.factsAt(&Call);
  return (Argument && Facts.provesLess(Claim.Within->Lo, Argument->Offset, false, Known) &&
          Facts.provesLess(Argument->Offset, Claim.Within->Hi, true, Known)) ||
         failAt(Facts, Call);
}

bool FootprintAnalysis::failAt(const FunctionFacts &Facts, const clang::Stmt &Use,
                               const std::string &Why) {
  if (!FailedUse.empty())
    return false;
  clang::ASTContext &Ctx = Facts.context();
  std::string Text = readableText(Ctx, Use.getSourceRange());
  if (Text.empty())
    Text = Use.getStmtClassName();
  else if (Text.size() > 60)
    Text = Text.substr(0, 57) + "...";
  FailedUse = "'" + Text + "' in '" + Facts.function().getNameAsString() + "' at line " +
              std::to_string(positionOf(Ctx, Use.getBeginLoc()).Line) +
              (Why.empty() ? "" : " (" + Why + ")");
  return false;
}

} // namespace launchopt

#include "ChildIndependence.h"

#include "HostAllocations.h"
#include "PointerFootprint.h"
#include "SourceText.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace launchopt {

namespace {

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

// A value that cannot hold a pointer: arithmetic, an enumeration, or a
// struct of such values (a pointer inside would reach memory the proof does
// not see).
bool holdsNoPointer(clang::QualType T) {
  T = T.getCanonicalType();
  if (T->isArithmeticType() || T->isEnumeralType())
    return true;
  if (const auto *Array = llvm::dyn_cast<clang::ConstantArrayType>(T.getTypePtr()))
    return holdsNoPointer(Array->getElementType());
  const auto *Record = T->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition() || Record->isUnion())
    return false;
  for (const clang::CXXBaseSpecifier &Base : Record->bases())
    if (!holdsNoPointer(Base.getType()))
      return false;
  for (const clang::FieldDecl *Field : Record->fields())
    if (Field->getType()->isReferenceType() || !holdsNoPointer(Field->getType()))
      return false;
  return true;
}

// Two distinct parameters of the parent that it declares __restrict__ and
// never reassigns: the user promises they do not point into one array.
bool restrictedApart(const clang::FunctionDecl &Parent, const clang::VarDecl *A,
                     const clang::VarDecl *B) {
  for (const clang::VarDecl *V : {A, B})
    if (!llvm::isa<clang::ParmVarDecl>(V) || V->getDeclContext() != &Parent ||
        !V->getType().isRestrictQualified() || !writesOf(Parent, V).empty())
      return false;
  return A != B;
}

std::string quoted(const clang::NamedDecl &D) { return "'" + D.getNameAsString() + "'"; }

// The proof for one pair of pointer arguments of an earlier launch E and
// this one (Site), or why there is none.
struct PairVerdict {
  bool Proved = false;
  std::string Text; // the disjoint ranges (empty when nothing needs saying), or the obstacle
  // The parent's __restrict__ parameters that told the arrays apart.
  std::vector<const clang::VarDecl *> Restricted;
  // The parent's parameters that its host launches give distinct
  // allocations, and the words that say so.
  std::vector<const clang::VarDecl *> Allocated;
  std::string HostLaunches;
};

class IndependenceProver {
public:
  IndependenceProver(const LaunchAnalysis &A, const LaunchSite &Site)
      : Launches(A), Site(Site), ParentFacts(*Site.Parent) {
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
  }

  // Whether the earlier launch E and Site are independent; Said gets the
  // proof's words or the obstacle.
  bool independentOf(const LaunchSite &E, std::vector<std::string> &Said) {
    std::string Line = "the launch at line " + std::to_string(E.Position.Line);
    if (!E.Child) {
      Said = {Line + " launches a kernel whose definition is not visible"};
      return false;
    }
    // Memory reached otherwise than through a pointer argument (a global, a
    // struct holding a pointer) is out of the proof's sight.
    for (const LaunchSite *L : {&E, &Site}) {
      if (!Footprints.onlyThroughParameters(*L->Child)) {
        Said = {quoted(*L->Child) + " reaches memory other than through its pointer parameters "
                                    "(a global variable, or a callee without a body given a "
                                    "pointer)"};
        return false;
      }
      for (const clang::Expr *Arg : L->Arguments)
        if (!Arg->getType()->isPointerType() && !holdsNoPointer(Arg->getType())) {
          Said = {(L == &E ? Line : std::string("this launch")) + " passes an argument of type '" +
                  Arg->getType().getAsString() + "', which may hold a pointer"};
          return false;
        }
    }
    std::vector<std::string> Ranges;
    std::set<const clang::VarDecl *> Restricted, Allocated;
    std::string HostLaunches;
    for (unsigned I = 0; I < E.Arguments.size(); ++I)
      for (unsigned J = 0; J < Site.Arguments.size(); ++J)
        if (E.Arguments[I]->getType()->isPointerType() &&
            Site.Arguments[J]->getType()->isPointerType()) {
          PairVerdict V = pair(E, I, J);
          if (!V.Proved) {
            Said = {V.Text};
            return false;
          }
          if (!V.Text.empty())
            Ranges.push_back(V.Text);
          Restricted.insert(V.Restricted.begin(), V.Restricted.end());
          Allocated.insert(V.Allocated.begin(), V.Allocated.end());
          if (!V.HostLaunches.empty())
            HostLaunches = V.HostLaunches;
        }
    if (!Restricted.empty()) {
      std::vector<std::string> Names;
      for (const clang::ParmVarDecl *P : Site.Parent->parameters())
        if (Restricted.count(P))
          Names.push_back(quoted(*P));
      Ranges.push_back(llvm::join(Names, ", ") + " are distinct __restrict__ parameters of the "
                                                 "parent");
    }
    if (!Allocated.empty()) {
      std::vector<std::string> Names;
      for (const clang::ParmVarDecl *P : Site.Parent->parameters())
        if (Allocated.count(P))
          Names.push_back(quoted(*P));
      Ranges.push_back(llvm::join(Names, ", ") + " are distinct allocations: " + HostLaunches);
    }
    if (Ranges.empty())
      Said.push_back(Line + " shares no array this child writes or that it writes");
    Said.insert(Said.end(), Ranges.begin(), Ranges.end());
    return true;
  }

private:
  // Two parameters of the parent, never reassigned in it, that every host
  // launch of the parent gives distinct allocations (HostAllocations.h).
  std::optional<std::string> allocatedApart(const clang::VarDecl *A, const clang::VarDecl *B) {
    const auto *PA = llvm::dyn_cast<clang::ParmVarDecl>(A);
    const auto *PB = llvm::dyn_cast<clang::ParmVarDecl>(B);
    if (!PA || !PB || PA->getDeclContext() != Site.Parent || PB->getDeclContext() != Site.Parent ||
        !writesOf(*Site.Parent, PA).empty() || !writesOf(*Site.Parent, PB).empty())
      return std::nullopt;
    return distinctHostAllocations(Launches, *Site.Parent, PA->getFunctionScopeIndex(),
                                   PB->getFunctionScopeIndex());
  }

  PairVerdict pair(const LaunchSite &E, unsigned I, unsigned J) {
    std::string Line = "the launch at line " + std::to_string(E.Position.Line);
    const clang::FunctionDecl &CA = *FootprintAnalysis::definition(E.Child);
    const clang::FunctionDecl &CB = *FootprintAnalysis::definition(Site.Child);
    Footprint First = Footprints.of(*E.Child, I), Second = Footprints.of(*Site.Child, J);
    for (auto [F, Child, Param] : {std::tuple(&First, &CA, I), std::tuple(&Second, &CB, J)})
      if (!F->Known)
        return {false, "what " + quoted(*Child) + " does through its parameter " +
                           quoted(*Child->getParamDecl(Param)) +
                           " cannot be followed: " + F->Unproved};
    if (!First.Writes && !Second.Writes)
      return {true, ""};
    // Atomics of one kind, and nothing else, commute whichever array they hit.
    if (!First.PlainAccess && !Second.PlainAccess && First.Atomics.size() == 1 &&
        First.Atomics == Second.Atomics)
      return {true,
              "'" +
                  readableText(Site.Parent->getASTContext(), Site.Arguments[J]->getSourceRange()) +
                  "' only by atomics of one kind (" + *First.Atomics.begin() + "), which commute"};
    std::string ArgA = readableText(Site.Parent->getASTContext(), E.Arguments[I]->getSourceRange()),
                ArgB =
                    readableText(Site.Parent->getASTContext(), Site.Arguments[J]->getSourceRange());
    std::string Conflict = "'" + ArgA + "' (" + (First.Writes ? "written" : "read") + " by " +
                           Line + ") and '" + ArgB + "' (" + (Second.Writes ? "written" : "read") +
                           " by this one)";
    std::optional<PointerArgument> PA =
        FootprintAnalysis::pointerArgument(ParentFacts, E.Arguments[I]);
    std::optional<PointerArgument> PB =
        FootprintAnalysis::pointerArgument(ParentFacts, Site.Arguments[J]);
    if (!PA || !PB)
      return {false, Conflict + ": an argument other than p, p + e or &p[e] of a variable p"};
    if (PA->Base != PB->Base) {
      if (restrictedApart(*Site.Parent, PA->Base, PB->Base))
        return {true, "", {PA->Base, PB->Base}};
      if (std::optional<std::string> Host = allocatedApart(PA->Base, PB->Base))
        return {true, "", {}, {PA->Base, PB->Base}, *Host};
      return {false, Conflict + " may point into one array (the parent does not declare " +
                         quoted(*PA->Base) + " and " + quoted(*PB->Base) +
                         " __restrict__ parameters it leaves unchanged, and its host launches "
                         "do not show them distinct cudaMalloc allocations)"};
    }
    if (Site.InClosure || E.InClosure)
      return {false, Conflict + ": in a lambda, which may run it several times, where the ranges "
                                "of different runs are not compared"};
    if (Site.InLoop || E.InLoop)
      return {false, Conflict + ": in a loop, where the ranges of different iterations are "
                                "not compared"};
    for (auto [F, Child] : {std::pair(&First, &CA), std::pair(&Second, &CB)})
      if (!F->Within)
        return {false, Conflict + " point into " + quoted(*PA->Base) +
                           ", and no range of the integer parameters of " + quoted(*Child) +
                           " bounds its accesses: " + F->Unproved};
    std::optional<Range> RA =
        FootprintAnalysis::rangeAtCall(ParentFacts, *E.Call, CA, *First.Within, PA->Offset);
    std::optional<Range> RB =
        FootprintAnalysis::rangeAtCall(ParentFacts, *Site.Call, CB, *Second.Within, PB->Offset);
    if (!RA || !RB)
      return {false, Conflict + ": the ranges " + First.Within->Text + " and " +
                         Second.Within->Text + " are not polynomials of the parent's variables"};
    for (const Poly *P : {&RA->Lo, &RA->Hi, &RB->Lo, &RB->Hi})
      if (changesAfter(*Site.Parent, *P, *E.Call, ParentVars))
        return {false,
                Conflict + ": the parent changes '" + polyText(*P) + "' after the first launch"};
    std::string Text = "[" + polyText(RA->Lo) + ", " + polyText(RA->Hi) + ") by " + Line + ", [" +
                       polyText(RB->Lo) + ", " + polyText(RB->Hi) + ") by this one";
    bool Disjoint = ParentFacts.provesLess(RA->Hi, RB->Lo, false, {}) ||
                    ParentFacts.provesLess(RB->Hi, RA->Lo, false, {});
    if (!Disjoint)
      return {false, Conflict + " may overlap: " + Text};
    return {true, quoted(*PA->Base) + " in disjoint ranges: " + Text +
                      " (each child stays within " + Second.Within->Text + " of its parameters)"};
  }

  const LaunchAnalysis &Launches;
  const LaunchSite &Site;
  FunctionFacts ParentFacts;
  FootprintAnalysis Footprints;
  std::map<std::string, const clang::VarDecl *> ParentVars;
};

} // namespace

Independence proveIndependentOfEarlierLaunches(const LaunchAnalysis &A, const LaunchSite &Site) {
  if (!Site.Child || !Site.Parent || !Site.Parent->getBody())
    return {false, "the child's or the parent's definition is not visible"};
  std::vector<const LaunchSite *> Earlier;
  for (unsigned I : A.SitesByParent.at(Site.Parent)) {
    const LaunchSite &E = A.Sites[I];
    bool Ordered = E.StreamKind == LaunchStream::Default || E.StreamKind == LaunchStream::Named;
    if (Ordered && !E.InDeferredClosure && (E.Id < Site.Id || Site.InLoop))
      Earlier.push_back(&E);
  }
  // The launches of other calls are not sites here: nothing is known of
  // their arguments.
  if (Site.FollowsUnseenLaunches)
    return {false, Site.UnseenOrder};
  if (Earlier.empty())
    return {false, "no earlier launch into the same stream was found"};
  IndependenceProver Prover(A, Site);
  std::vector<std::string> Reasons;
  for (const LaunchSite *E : Earlier) {
    std::vector<std::string> Said;
    if (!Prover.independentOf(*E, Said))
      return {false, Said.front()};
    for (const std::string &S : Said)
      if (std::find(Reasons.begin(), Reasons.end(), S) == Reasons.end())
        Reasons.push_back(S);
  }
  std::string Proof = "independent of the earlier launches into the same stream: ";
  for (size_t I = 0; I < Reasons.size(); ++I)
    Proof += (I ? "; " : "") + Reasons[I];
  return {true, Proof};
}

} // namespace launchopt

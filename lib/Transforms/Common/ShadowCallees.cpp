#include "ShadowCallees.h"

#include "IncludedFileCopies.h"
#include "KernelCopy.h"
#include "MemberShadows.h"
#include "Refusal.h"
#include "Analysis/CooperativeGroups.h"
#include "Analysis/KernelFeatures.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <functional>

namespace launchopt {

namespace {

const char *const ReadsBuiltins = "which reads the built-in index variables";

// A function whose calls are followed: user code with a definition, not a
// kernel (launched, never called) and not a lambda (its body is copied
// with the enclosing one).
const clang::FunctionDecl *followedDefinition(const clang::FunctionDecl *F) {
  if (!F || F->getBuiltinID() || F->hasAttr<clang::CUDAGlobalAttr>() || isCooperativeGroupsDecl(F))
    return nullptr;
  if (auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(F))
    if (M->getParent()->isLambda())
      return nullptr;
  return definitionOf(F);
}

using Facts = ShadowCallees::FunctionFacts;
using Site = ShadowCallees::CallSite;

class FactsCollector : public clang::RecursiveASTVisitor<FactsCollector> {
  using Base = clang::RecursiveASTVisitor<FactsCollector>;

public:
  FactsCollector(const clang::ASTContext &Ctx, Facts &Out, clang::FileID In)
      : Ctx(Ctx), Out(Out), In(In) {}

  bool TraverseCUDAKernelCallExpr(clang::CUDAKernelCallExpr *E) {
    ++InLaunch;
    bool Continue = Base::TraverseCUDAKernelCallExpr(E);
    --InLaunch;
    return Continue;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (isBuiltinIndexVariable(E->getDecl())) {
      Out.ReadsBuiltins = true;
      return true;
    }
    noteStaticMemberUse(*E);
    if (Called.count(E))
      return true;
    // Anything else that names a function takes its address or binds a
    // reference: the call through it cannot be redirected.
    if (const clang::FunctionDecl *Def =
            followedDefinition(llvm::dyn_cast<clang::FunctionDecl>(E->getDecl())))
      addReference(Def);
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *E) {
    if (llvm::isa<clang::CUDAKernelCallExpr>(E))
      return true;
    if (std::optional<GroupQuery> Q = groupQueryOf(Ctx, *E)) {
      noteGroupQuery(*E, *Q);
      return true;
    }
    const clang::Expr *Callee = E->getCallee()->IgnoreParenImpCasts();
    Site S;
    clang::SourceLocation NameLoc;
    if (llvm::isa<clang::CXXOperatorCallExpr>(E)) {
      S.Problem = "as an operator";
      if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
        Called.insert(Ref);
      if (const clang::FunctionDecl *Def = followedDefinition(E->getDirectCallee()))
        S.Candidates.push_back(Def);
    } else if (auto *Member = llvm::dyn_cast<clang::MemberExpr>(Callee)) {
      const clang::FunctionDecl *Def = followedDefinition(E->getDirectCallee());
      if (!Def)
        return true;
      S.Candidates.push_back(Def);
      NameLoc = Member->getMemberLoc();
      notedMemberCall(*Member, S);
    } else if (auto *Dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(Callee)) {
      const clang::FunctionDecl *Def = dependentMemberCallee(*Dependent);
      if (!Def)
        return true;
      S.Candidates.push_back(Def);
      NameLoc = Dependent->getMemberLoc();
      notedMemberCall(*Dependent, S);
    } else if (llvm::isa<clang::UnresolvedMemberExpr>(Callee)) {
      return true;
    } else if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee)) {
      Called.insert(Ref);
      auto *F = llvm::dyn_cast<clang::FunctionDecl>(Ref->getDecl());
      const clang::FunctionDecl *Def = followedDefinition(F);
      if (!Def)
        return true;
      S.Candidates.push_back(Def);
      NameLoc = Ref->getNameInfo().getLoc();
      if (llvm::isa<clang::UsingShadowDecl>(Ref->getFoundDecl()))
        S.Problem = "through a using-declaration";
      else if (llvm::isa<clang::CXXMethodDecl>(F))
        notedStaticCall(*Ref, S);
    } else if (auto *Lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee)) {
      // A dependent call in a template: the candidates are what ordinary
      // lookup found; with one, the call is known.
      Called.insert(Lookup);
      unsigned Count = 0;
      for (const clang::NamedDecl *D : Lookup->decls()) {
        ++Count;
        if (llvm::isa<clang::UsingShadowDecl>(D))
          S.Problem = "through a using-declaration";
        const clang::NamedDecl *U = D->getUnderlyingDecl();
        const clang::FunctionDecl *F = llvm::dyn_cast<clang::FunctionDecl>(U);
        if (auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(U))
          F = T->getTemplatedDecl();
        if (const clang::FunctionDecl *Def = followedDefinition(F))
          S.Candidates.push_back(Def);
      }
      if (S.Candidates.empty())
        return true;
      if (Count > 1 && S.Problem.empty())
        S.Problem = "among overloads that the template's call leaves unresolved";
      NameLoc = Lookup->getNameLoc();
      if (S.Problem.empty() && S.Candidates.front()->getNumParams() > E->getNumArgs())
        S.Problem = "relying on default arguments";
    } else {
      return true;
    }
    if (S.Problem.empty() && InLaunch)
      S.Problem = "inside a launch's configuration or arguments";
    if (S.Problem.empty())
      for (const clang::Expr *Arg : E->arguments())
        if (llvm::isa<clang::CXXDefaultArgExpr>(Arg))
          S.Problem = "relying on default arguments";
    std::optional<FileRange> Name = writtenRange(Ctx, clang::SourceRange(NameLoc), In);
    std::optional<FileRange> RParen = writtenRange(Ctx, clang::SourceRange(E->getRParenLoc()), In);
    if (S.Problem.empty() && (!Name || !RParen))
      S.Problem = "inside a macro";
    if (S.Problem.empty()) {
      S.Name = *Name;
      S.ArgumentsEnd = RParen->Begin;
      S.HasArguments = E->getNumArgs() > 0;
    }
    if (S.Problem.empty() && S.Member && !S.ArgumentsBegin)
      S.Problem = "with its name or '(' written in a macro";
    Out.Calls.push_back(S);
    return true;
  }

  // Uses of the object and the class, for a member's copy outside its class.
  bool VisitMemberExpr(clang::MemberExpr *E) {
    noteMemberAccess(E->getMemberDecl());
    auto *This = llvm::dyn_cast<clang::CXXThisExpr>(E->getBase()->IgnoreParenImpCasts());
    if (This && This->isImplicit())
      if (std::optional<FileRange> At =
              writtenRange(Ctx, clang::SourceRange(E->getMemberLoc()), In))
        Out.ClassUses.push_back({ClassUse::ImplicitThis, At->Begin, 0, nullptr, callOf(E)});
    return true;
  }

  bool VisitCXXThisExpr(clang::CXXThisExpr *E) {
    if (E->isImplicit())
      return true;
    std::optional<FileRange> At = writtenRange(Ctx, E->getSourceRange(), In);
    if (!At)
      noteOutsideClassProblem("uses 'this' in a macro");
    else
      Out.ClassUses.push_back(
          {ClassUse::ExplicitThis, At->Begin, At->End - At->Begin, nullptr, callOf(E)});
    return true;
  }

  bool VisitTagTypeLoc(clang::TagTypeLoc T) {
    noteMemberType(T.getDecl());
    return true;
  }
  bool VisitTypedefTypeLoc(clang::TypedefTypeLoc T) {
    noteMemberType(T.getTypedefNameDecl());
    return true;
  }

  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr *E) {
    if (Called.count(E))
      return true;
    for (const clang::NamedDecl *D : E->decls()) {
      const clang::NamedDecl *U = D->getUnderlyingDecl();
      const clang::FunctionDecl *F = llvm::dyn_cast<clang::FunctionDecl>(U);
      if (auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(U))
        F = T->getTemplatedDecl();
      if (const clang::FunctionDecl *Def = followedDefinition(F))
        addReference(Def);
    }
    return true;
  }

private:
  using ClassUse = ShadowCallees::ClassUse;

  int callOf(const clang::Expr *E) const {
    auto It = CallOfCallee.find(E);
    return It == CallOfCallee.end() ? -1 : It->second;
  }

  // The offset just past the '(' that follows From, or 0.
  unsigned afterOpenParen(unsigned From) const {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    llvm::StringRef Buffer = SM.getBufferData(In.isValid() ? In : SM.getMainFileID());
    size_t At = Buffer.find_first_not_of(" \t\r\n", From);
    return At != llvm::StringRef::npos && Buffer[At] == '(' ? At + 1 : 0;
  }

  // The member that a template's call on an object of a class template
  // names (`g.expand(v)` with `g` a `Csr<T>`): the one member of that name in
  // the class template, with a body; none when overloads or another base
  // (`this`, a dependent type that is not a class template) leave it open.
  const clang::FunctionDecl *
  dependentMemberCallee(const clang::CXXDependentScopeMemberExpr &E) const {
    if (E.isImplicitAccess() || llvm::isa<clang::CXXThisExpr>(E.getBase()->IgnoreParenImpCasts()))
      return nullptr;
    clang::QualType Type = E.getBaseType();
    if (E.isArrow()) {
      const auto *Pointer = Type->getAs<clang::PointerType>();
      if (!Pointer)
        return nullptr;
      Type = Pointer->getPointeeType();
    }
    const auto *Specialization =
        Type.getNonReferenceType()->getAs<clang::TemplateSpecializationType>();
    auto *Template = Specialization ? llvm::dyn_cast_or_null<clang::ClassTemplateDecl>(
                                          Specialization->getTemplateName().getAsTemplateDecl())
                                    : nullptr;
    const clang::CXXRecordDecl *Pattern =
        Template ? Template->getTemplatedDecl()->getDefinition() : nullptr;
    if (!Pattern)
      return nullptr;
    const clang::FunctionDecl *Found = nullptr;
    for (const clang::NamedDecl *D : Pattern->lookup(E.getMember())) {
      const clang::NamedDecl *U = D->getUnderlyingDecl();
      const clang::FunctionDecl *F = llvm::dyn_cast<clang::FunctionDecl>(U);
      if (auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(U))
        F = T->getTemplatedDecl();
      if (!F || Found)
        return nullptr;
      Found = F;
    }
    return followedDefinition(Found);
  }

  // MemberT: a MemberExpr, or a template's CXXDependentScopeMemberExpr.
  template <typename MemberT> void notedMemberCall(const MemberT &Member, Site &S) {
    S.Member = true;
    S.Arrow = Member.isArrow();
    int Index = Out.Calls.size();
    CallOfCallee[&Member] = Index;
    clang::SourceLocation NameEnd =
        Member.hasExplicitTemplateArgs() ? Member.getRAngleLoc() : Member.getMemberLoc();
    std::optional<FileRange> Name = writtenRange(Ctx, clang::SourceRange(NameEnd), In);
    if (Name)
      S.ArgumentsBegin = afterOpenParen(Name->End);
    const clang::Expr *Base = Member.getBase()->IgnoreParenImpCasts();
    if (auto *This = llvm::dyn_cast<clang::CXXThisExpr>(Base)) {
      CallOfCallee[This] = Index;
      std::optional<FileRange> From = writtenRange(
          Ctx, clang::SourceRange(This->isImplicit() ? Member.getMemberLoc() : This->getBeginLoc()),
          In);
      if (From)
        S.CalleeBegin = From->Begin;
      else
        S.ArgumentsBegin = 0;
      return;
    }
    std::optional<FileRange> Object = writtenRange(Ctx, Member.getBase()->getSourceRange(), In);
    std::optional<FileRange> Operator =
        writtenRange(Ctx, clang::SourceRange(Member.getOperatorLoc()), In);
    if (!Object || !Operator) {
      S.ArgumentsBegin = 0;
      return;
    }
    S.ObjectBegin = Object->Begin;
    S.CalleeBegin = Operator->Begin;
  }

  void notedStaticCall(const clang::DeclRefExpr &Ref, Site &S) {
    CallOfCallee[&Ref] = Out.Calls.size();
    std::optional<FileRange> Whole = writtenRange(Ctx, Ref.getSourceRange(), In);
    if (Whole)
      S.CalleeBegin = Whole->Begin;
  }

  void noteOutsideClassProblem(const std::string &Problem) {
    if (Out.OutsideClassProblem.empty())
      Out.OutsideClassProblem = Problem;
  }

  void noteMemberAccess(const clang::ValueDecl *D) {
    if (!D || !D->getDeclContext()->isRecord())
      return;
    clang::AccessSpecifier Access = D->getAccess();
    if (Access == clang::AS_private || Access == clang::AS_protected)
      noteOutsideClassProblem("uses the " +
                              std::string(Access == clang::AS_private ? "private" : "protected") +
                              " member '" + D->getNameAsString() + "'");
  }

  void noteMemberType(const clang::NamedDecl *D) {
    if (D && D->getDeclContext()->isRecord())
      noteOutsideClassProblem("uses the member type '" + D->getNameAsString() + "'");
  }

  // A static member (or a class's enumerator) named without its class.
  void noteStaticMemberUse(const clang::DeclRefExpr &E) {
    const clang::ValueDecl *D = E.getDecl();
    const clang::DeclContext *Scope = D->getDeclContext();
    if (auto *Enum = llvm::dyn_cast<clang::EnumDecl>(Scope))
      if (!Enum->isScoped())
        Scope = Enum->getDeclContext();
    auto *Class = llvm::dyn_cast<clang::CXXRecordDecl>(Scope);
    if (!Class)
      return;
    noteMemberAccess(D);
    if (E.hasQualifier())
      return;
    std::optional<FileRange> At = writtenRange(Ctx, E.getSourceRange(), In);
    if (!At)
      noteOutsideClassProblem("names the static member '" + D->getNameAsString() + "' in a macro");
    else
      Out.ClassUses.push_back({ClassUse::UnqualifiedStatic, At->Begin, 0, Class, callOf(&E)});
  }

  void noteGroupQuery(const clang::CallExpr &E, const GroupQuery &Q) {
    if (Q.Expression.empty() && Q.Problem.empty())
      return;
    Out.ReadsBuiltins = true;
    std::string Problem = Q.Problem;
    std::optional<FileRange> Call = writtenRange(Ctx, E.getSourceRange(), In);
    if (Problem.empty() && !Call)
      Problem = "is written inside a macro";
    if (Problem.empty() && InLaunch)
      Problem = "is inside a launch's configuration or arguments";
    if (!Problem.empty()) {
      if (Out.GroupQueryProblem.empty())
        Out.GroupQueryProblem = "calls cooperative_groups '" + Q.Member + "', which " + Problem;
      return;
    }
    Out.GroupQueries.push_back({Call->Begin, Call->End - Call->Begin, Q.Expression});
  }

  void addReference(const clang::FunctionDecl *Def) {
    Site S;
    S.Candidates.push_back(Def);
    S.Problem = "through a pointer or reference to it";
    Out.Calls.push_back(S);
  }

  const clang::ASTContext &Ctx;
  Facts &Out;
  clang::FileID In; // the file the body is written in (invalid: the main file)
  unsigned InLaunch = 0;
  std::set<const clang::Expr *> Called;
  // The call site (index in Out.Calls) whose callee an expression is.
  std::map<const clang::Expr *, int> CallOfCallee;
};

// The offset just past the ';' that ends a declaration ending at End.
std::optional<unsigned> afterSemicolon(const clang::ASTContext &Ctx, unsigned End) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  size_t At = Buffer.find_first_not_of(" \t\r\n", End);
  if (At == llvm::StringRef::npos || Buffer[At] != ';')
    return std::nullopt;
  return At + 1;
}

// The pieces of a function's definition its shadow copy is written from.
struct ShadowText {
  KernelCopy Copy;
  std::string Prefix; // template header, specifiers and return type
  std::string Suffix; // between ')' and the body: trailing return type, ...
  std::optional<unsigned> PrototypeOffset;
  // A function defined in an included file: its copy goes where Placement
  // says (after the main file's #include line that brings the file in,
  // inside the function's namespaces), declared first there when
  // NeedsPrototype (it was declared before it was defined).
  bool Included = false;
  IncludedPlacement Placement;
  bool NeedsPrototype = false;
  // A member of a class of an included file: copied as a free function.
  const clang::CXXMethodDecl *OutsideClass = nullptr;
  OutsideClassCopy Free;
};

// The pieces of Def's shadow copy, or what keeps Def from being copied: the
// end of a remark "... which reads the built-in index variables and <it>".
llvm::Expected<ShadowText> shadowText(const clang::ASTContext &Ctx,
                                      const clang::FunctionDecl &Def) {
  const clang::Decl *Whole = &Def;
  if (const clang::FunctionTemplateDecl *T = Def.getDescribedFunctionTemplate())
    Whole = T;
  clang::FileID In = includedFileOf(Ctx, Def);
  if (!spelledRange(Ctx, Whole->getSourceRange(), In) || !Def.getBody() ||
      !writtenRange(Ctx, Def.getBody()->getSourceRange(), In))
    return refusal("is not defined outside macros");
  llvm::Expected<KernelCopy> Read = readKernel(Ctx, Def, In, /*Member=*/true);
  if (!Read)
    return refusal("cannot be copied (" + llvm::toString(Read.takeError()) + ")");
  ShadowText Out;
  Out.Copy = std::move(*Read);
  std::optional<FileRange> Name = writtenRange(Ctx, clang::SourceRange(Def.getLocation()), In);
  clang::FunctionTypeLoc Type = Def.getFunctionTypeLoc();
  std::optional<FileRange> RParen =
      Type ? writtenRange(Ctx, clang::SourceRange(Type.getRParenLoc()), In) : std::nullopt;
  if (!Name || !RParen || Name->Begin < Out.Copy.Whole.Begin || RParen->End > Out.Copy.Body.Begin)
    return refusal("has a signature written in a macro");
  auto *Method = llvm::dyn_cast<clang::CXXMethodDecl>(&Def);
  if (Method)
    if (llvm::Error Why = checkCopyableMember(Ctx, *Method))
      return std::move(Why);
  if (Def.getQualifierLoc())
    return refusal("is defined out of its namespace");
  Out.Prefix = textOf(Ctx, {Out.Copy.Whole.Begin, Name->Begin, In});
  Out.Suffix = llvm::StringRef(textOf(Ctx, {RParen->End, Out.Copy.Body.Begin, In})).rtrim().str();
  const clang::Decl *First = Def.getFirstDecl();
  if (const clang::FunctionTemplateDecl *T = Def.getDescribedFunctionTemplate())
    First = T->getFirstDecl();
  if (In.isValid()) {
    llvm::Expected<IncludedPlacement> Placement = placementOf(Ctx, Def, In);
    if (!Placement)
      return Placement.takeError();
    Out.Placement = std::move(*Placement);
    if (Method) {
      llvm::Expected<OutsideClassCopy> Free = outsideClassCopy(Ctx, *Method, In);
      if (!Free)
        return Free.takeError();
      Out.OutsideClass = Method;
      Out.Free = std::move(*Free);
      // The qualifiers of `this` go to the object parameter.
      llvm::StringRef Suffix = llvm::StringRef(Out.Suffix).ltrim();
      if (Method->isConst() && Suffix.consume_front("const"))
        Out.Suffix = Suffix.ltrim().str();
      // `static` stays: at namespace scope it only gives the copy internal
      // linkage.
    }
    Out.Included = true;
    // Members call each other regardless of their order in the class; their
    // free copies are declared first.
    Out.NeedsPrototype = First != Whole || Out.OutsideClass;
  } else if (First != Whole) {
    std::optional<FileRange> Declared = spelledRange(Ctx, First->getSourceRange());
    if (!Declared || !(Out.PrototypeOffset = afterSemicolon(Ctx, Declared->End)))
      return refusal("is first declared where a declaration of its copy cannot follow");
  }
  return std::move(Out);
}

// Extra: the pass's parameters after the built-ins (ShadowCallees::passAlso).
std::string shadowSignature(const ShadowText &T, const std::string &Extra) {
  if (T.OutsideClass)
    return T.Free.TemplateHeader + T.Prefix +
           generated::shadowMemberCopy(T.OutsideClass->getParent()->getName(), T.Copy.Name) + "(" +
           (T.Free.SelfParameter.empty() ? "" : T.Free.SelfParameter + ", ") +
           T.Copy.parameters(true) + passedBuiltinParameters() + Extra + ")" +
           (T.Suffix.empty() ? "" : " " + T.Suffix);
  return T.Prefix + generated::ShadowCopyPrefix + T.Copy.Name + "(" + T.Copy.parameters(true) +
         passedBuiltinParameters() + Extra + ")" +
         (T.Suffix.empty() ? "" : " " + llvm::StringRef(T.Suffix).ltrim().str());
}

// The shadow copy's definition, its body edited by BodyEdits.
std::string shadowDefinition(const clang::ASTContext &Ctx, const ShadowText &Text,
                             const std::vector<SourceEdit> &BodyEdits, const std::string &Extra) {
  std::string S = "// launchopt: '" + Text.Copy.Name +
                  "' for copied kernel bodies: the built-in index variables\n"
                  "// are passed in and shadowed, as in the copy that calls it.\n";
  S += shadowSignature(Text, Extra) + "\n{\n";
  S += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  return S + "  " + Text.Copy.body(Ctx, BodyEdits) + "\n}";
}

} // namespace

const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *F) {
  if (!F)
    return nullptr;
  const clang::FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
  const clang::FunctionDecl *Def = nullptr;
  if ((Pattern ? Pattern : F)->hasBody(Def) && Def)
    return Def;
  return nullptr;
}

const ShadowCallees::FunctionFacts &ShadowCallees::factsOf(const clang::FunctionDecl *Def) {
  auto It = Facts.find(Def);
  if (It != Facts.end())
    return It->second;
  FunctionFacts F;
  FactsCollector Collector(Ctx, F, includedFileOf(Ctx, *Def));
  Collector.TraverseStmt(Def->getBody());
  return Facts.emplace(Def, std::move(F)).first->second;
}

bool ShadowCallees::needsShadow(const clang::FunctionDecl *Def) {
  auto Known = Needs.find(Def);
  if (Known != Needs.end())
    return Known->second;
  // Everything reachable from Def, then a fixed point: a function needs a
  // shadow copy when it reads the built-ins or calls one that does
  // (recursion included).
  std::vector<const clang::FunctionDecl *> Reachable{Def};
  std::set<const clang::FunctionDecl *> Seen{Def};
  for (size_t I = 0; I < Reachable.size(); ++I)
    for (const CallSite &C : factsOf(Reachable[I]).Calls)
      for (const clang::FunctionDecl *Callee : C.Candidates)
        if (!Needs.count(Callee) && Seen.insert(Callee).second)
          Reachable.push_back(Callee);
  std::map<const clang::FunctionDecl *, bool> Local;
  for (const clang::FunctionDecl *F : Reachable)
    Local[F] = Facts.at(F).ReadsBuiltins || Copied.count(F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const clang::FunctionDecl *F : Reachable) {
      if (Local[F])
        continue;
      for (const CallSite &C : Facts.at(F).Calls)
        for (const clang::FunctionDecl *Callee : C.Candidates) {
          auto Outer = Needs.find(Callee);
          if (Outer != Needs.end() ? Outer->second : Local[Callee]) {
            Local[F] = true;
            Changed = true;
          }
        }
    }
  }
  Needs.insert(Local.begin(), Local.end());
  return Needs.at(Def);
}

llvm::Error ShadowCallees::require(const clang::FunctionDecl &Kernel) {
  const clang::FunctionDecl *Root = definitionOf(&Kernel);
  if (!Root)
    return llvm::Error::success();
  std::set<const clang::FunctionDecl *> Shadowed;
  std::vector<const clang::FunctionDecl *> Stack;
  // Depth first, so that a function met again while it is on the stack is
  // recursion among shadowed functions.
  std::function<llvm::Error(const clang::FunctionDecl *, const std::string &)> Visit =
      [&](const clang::FunctionDecl *F, const std::string &Caller) -> llvm::Error {
    if (!factsOf(F).GroupQueryProblem.empty())
      return refusal(Caller + " " + factsOf(F).GroupQueryProblem);
    for (const CallSite &C : factsOf(F).Calls) {
      bool Needed = std::any_of(C.Candidates.begin(), C.Candidates.end(),
                                [&](const clang::FunctionDecl *D) { return needsShadow(D); });
      if (!Needed)
        continue;
      std::string Callee = C.Candidates.front()->getNameAsString();
      const std::string ReadsBuiltins = whyCopied(C.Candidates.front());
      if (!C.Problem.empty())
        return refusal(Caller + " calls '" + Callee + "', " + ReadsBuiltins + ", " + C.Problem);
      const clang::FunctionDecl *D = C.Candidates.front();
      if (std::find(Stack.begin(), Stack.end(), D) != Stack.end())
        return refusal(Caller + " calls '" + Callee + "', " + ReadsBuiltins + ", recursively");
      if (!Shadowed.insert(D).second)
        continue;
      llvm::Expected<ShadowText> Text = shadowText(Ctx, *D);
      if (!Text)
        return refusal(Caller + " calls '" + Callee + "', " + ReadsBuiltins + " and " +
                       llvm::toString(Text.takeError()));
      if (Text->OutsideClass) {
        std::string Class = Text->OutsideClass->getParent()->getNameAsString();
        if (!factsOf(D).OutsideClassProblem.empty())
          return refusal(Caller + " calls '" + Callee + "', " + ReadsBuiltins + ", a member of '" +
                         Class + "' defined in an included file; its copy outside the class " +
                         factsOf(D).OutsideClassProblem + ", which it cannot access");
        if (Text->OutsideClass->isStatic() && C.ObjectBegin)
          return refusal(Caller + " calls '" + Callee + "', " + ReadsBuiltins +
                         ", a static member of '" + Class + "', through an object");
      }
      Stack.push_back(D);
      llvm::Error Inner = Visit(D, "'" + Callee + "'");
      Stack.pop_back();
      if (Inner)
        return Inner;
    }
    return llvm::Error::success();
  };
  Stack.push_back(Root);
  if (llvm::Error Why = Visit(Root, "child"))
    return Why;
  Reached[&Kernel] = std::move(Shadowed);
  return llvm::Error::success();
}

bool ShadowCallees::redirected(const CallSite &C) const {
  if (!C.Problem.empty() || C.Candidates.size() != 1)
    return false;
  auto N = Needs.find(C.Candidates.front());
  return N != Needs.end() && N->second;
}

void ShadowCallees::addCallEdits(const clang::FunctionDecl *Caller, const CallSite &C,
                                 std::vector<SourceEdit> &Edits) const {
  const clang::FunctionDecl *Callee = C.Candidates.front();
  const std::string Builtins = "blockIdx, threadIdx, blockDim, gridDim";
  auto *Method = llvm::dyn_cast<clang::CXXMethodDecl>(Callee);
  if (!Method || !copiedOutsideClass(Ctx, *Method)) {
    // A free function, or a member whose copy is a member beside it.
    Edits.push_back({C.Name.Begin, C.Name.End - C.Name.Begin,
                     generated::ShadowCopyPrefix + Callee->getNameAsString()});
    Edits.push_back(
        {C.ArgumentsEnd, 0, std::string(C.HasArguments ? ", " : "") + Builtins + ExtraArguments});
    return;
  }
  std::string Free = qualifiedOutsideClassName(*Method);
  if (Method->isStatic()) {
    Edits.push_back({C.CalleeBegin, C.Name.End - C.CalleeBegin, Free});
    Edits.push_back(
        {C.ArgumentsEnd, 0, std::string(C.HasArguments ? ", " : "") + Builtins + ExtraArguments});
    return;
  }
  // The object becomes the first argument: `g.m(a)` -> `m'(g, a, ...)`,
  // `p->m(a)` -> `m'(*(p), a, ...)`, `m(a)` in a member -> `m'(self, a, ...)`.
  std::string Separator = C.HasArguments ? ", " : "";
  if (C.ObjectBegin) {
    Edits.push_back({*C.ObjectBegin, 0, Free + "(" + (C.Arrow ? "*(" : "")});
    Edits.push_back(
        {C.CalleeBegin, C.ArgumentsBegin - C.CalleeBegin, (C.Arrow ? ")" : "") + Separator});
  } else {
    std::string Self = copiedOutsideClass(Ctx, *Caller) ? generated::ShadowSelf : "*this";
    Edits.push_back(
        {C.CalleeBegin, C.ArgumentsBegin - C.CalleeBegin, Free + "(" + Self + Separator});
  }
  Edits.push_back({C.ArgumentsEnd, 0, ", " + Builtins + ExtraArguments});
}

std::vector<SourceEdit> ShadowCallees::editsFor(const clang::FunctionDecl *Def) const {
  std::vector<SourceEdit> Edits;
  auto It = Facts.find(Def);
  if (It == Facts.end())
    return Edits;
  const FunctionFacts &F = It->second;
  Edits = F.GroupQueries;
  for (const CallSite &C : F.Calls)
    if (redirected(C))
      addCallEdits(Def, C, Edits);
  if (!copiedOutsideClass(Ctx, *Def))
    return Edits;
  // The body leaves its class: the object and the class are named.
  auto *Method = llvm::cast<clang::CXXMethodDecl>(Def);
  std::string Class = classInCopy(*Method);
  for (const ClassUse &U : F.ClassUses) {
    if (U.Call >= 0 && redirected(F.Calls[U.Call]))
      continue;
    switch (U.What) {
    case ClassUse::ImplicitThis:
      Edits.push_back({U.Offset, 0, generated::ShadowSelf + "."});
      break;
    case ClassUse::ExplicitThis:
      Edits.push_back({U.Offset, U.Length, "(&" + generated::ShadowSelf + ")"});
      break;
    case ClassUse::UnqualifiedStatic:
      Edits.push_back(
          {U.Offset, 0,
           (U.Class == Method->getParent() ? Class : "::" + U.Class->getQualifiedNameAsString()) +
               "::"});
      break;
    }
  }
  return Edits;
}

std::string ShadowCallees::whyCopied(const clang::FunctionDecl *Def) {
  if (Copied.empty() || factsOf(Def).ReadsBuiltins)
    return ReadsBuiltins;
  if (Copied.count(Def))
    return "which launches kernels the pass rewrites";
  return "which reads the built-in index variables or reaches launches the pass rewrites";
}

bool ShadowCallees::reaches(const clang::FunctionDecl &Kernel,
                            const clang::FunctionDecl *Target) const {
  auto It = Reached.find(&Kernel);
  return It != Reached.end() && It->second.count(Target);
}

std::vector<SourceEdit> ShadowCallees::callEdits(const clang::FunctionDecl &Kernel) const {
  const clang::FunctionDecl *Root = definitionOf(&Kernel);
  return Root ? editsFor(Root) : std::vector<SourceEdit>{};
}

bool ShadowCallees::alreadyDefined(const clang::FunctionDecl *Def) const {
  const clang::DeclContext *Scope = Def->getDeclContext()->getRedeclContext();
  std::string Copy = generated::ShadowCopyPrefix + Def->getNameAsString();
  unsigned Self = 0; // the object parameter of a copy outside its class
  if (copiedOutsideClass(Ctx, *Def)) {
    auto *Method = llvm::cast<clang::CXXMethodDecl>(Def);
    Scope = Method->getParent()->getDeclContext()->getRedeclContext();
    Copy = generated::shadowMemberCopy(Method->getParent()->getName(), Def->getName());
    Self = Method->isStatic() ? 0 : 1;
  }
  clang::DeclarationName Name(&Ctx.Idents.get(Copy));
  for (const clang::NamedDecl *Found : Scope->lookup(Name)) {
    const clang::FunctionDecl *F = Found->getAsFunction();
    if (!F || F->getNumParams() != Def->getNumParams() + Self + 4 + ExtraCount)
      continue;
    bool Same = true;
    for (unsigned I = 0; I < Def->getNumParams() && Same; ++I)
      Same = Ctx.hasSameType(F->getParamDecl(I + Self)->getType(), Def->getParamDecl(I)->getType());
    if (Same)
      return true;
  }
  return false;
}

void ShadowCallees::emit(SourceEdits &Edits, const std::vector<SourceEdit> &PassEdits,
                         const std::set<const clang::FunctionDecl *> &Kernels) const {
  std::set<const clang::FunctionDecl *> Needed;
  for (const clang::FunctionDecl *K : Kernels) {
    auto It = Reached.find(K);
    if (It != Reached.end())
      Needed.insert(It->second.begin(), It->second.end());
  }
  // Copies of functions in included files, by the #include they follow, in
  // the order they were defined (a callee before its callers).
  std::map<unsigned, std::vector<std::pair<const clang::FunctionDecl *, ShadowText>>> Included;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const clang::FunctionDecl *D : Needed) {
    if (alreadyDefined(D))
      continue;
    // require() reached only functions it could read.
    ShadowText Text = llvm::cantFail(shadowText(Ctx, *D));
    std::vector<SourceEdit> BodyEdits = Text.Included ? std::vector<SourceEdit>{} : PassEdits;
    std::vector<SourceEdit> Calls = editsFor(D);
    BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    if (Text.Included) {
      Included[Text.Placement.Offset].push_back({D, std::move(Text)});
      continue;
    }
    std::string Signature = shadowSignature(Text, ExtraParameters);
    if (Text.PrototypeOffset)
      Edits.insert(*Text.PrototypeOffset, "\n" + Signature + ";");
    Edits.insert(Text.Copy.Whole.End,
                 "\n\n" + shadowDefinition(Ctx, Text, BodyEdits, ExtraParameters));
  }
  for (auto &[Offset, Copies] : Included) {
    std::sort(Copies.begin(), Copies.end(), [&](const auto &L, const auto &R) {
      return SM.isBeforeInTranslationUnit(L.first->getLocation(), R.first->getLocation());
    });
    std::string S = "\n// launchopt: copies of functions defined in the header above, for\n"
                    "// copied kernel bodies (the header itself is left as it is).\n";
    for (const auto &[D, Text] : Copies)
      if (Text.NeedsPrototype)
        S += Text.Placement.NamespacesOpen + shadowSignature(Text, ExtraParameters) + ";\n" +
             Text.Placement.NamespacesClose;
    for (const auto &[D, Text] : Copies)
      S += Text.Placement.NamespacesOpen +
           shadowDefinition(Ctx, Text, editsFor(D), ExtraParameters) + "\n" +
           Text.Placement.NamespacesClose;
    Edits.insert(Offset, S);
  }
}

} // namespace launchopt

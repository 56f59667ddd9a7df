#include "UnseenLaunchOrder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <map>
#include <optional>
#include <set>

namespace launchopt {

namespace {

bool isOrderedStream(LaunchStream S) {
  return S == LaunchStream::Default || S == LaunchStream::Named;
}

// A __device__ function, not a kernel: what a thread calls. launchopt's
// own device runtime is not one: its launches (a drain of deferred
// children) are ordered by the runtime, with no stream order to keep.
bool isDeviceHelper(const clang::FunctionDecl &F) {
  return F.hasAttr<clang::CUDADeviceAttr>() && !F.hasAttr<clang::CUDAGlobalAttr>() &&
         !llvm::StringRef(F.getQualifiedNameAsString()).starts_with("launchopt::");
}

struct CallSite {
  const clang::FunctionDecl *Caller;
  const clang::CallExpr *Call;
  bool Repeated; // in a loop or a lambda of the caller
};

// The statement or declaration above a node, or nothing at a function.
std::optional<clang::DynTypedNode> above(clang::ASTContext &Ctx, const clang::DynTypedNode &Node) {
  auto Parents = Ctx.getParents(Node);
  if (Parents.empty() || Parents[0].get<clang::FunctionDecl>())
    return std::nullopt;
  return Parents[0];
}

bool isRepetition(const clang::DynTypedNode &Node) {
  return Node.get<clang::ForStmt>() || Node.get<clang::WhileStmt>() || Node.get<clang::DoStmt>() ||
         Node.get<clang::CXXForRangeStmt>() || Node.get<clang::LambdaExpr>();
}

// Whether two statements of one function cannot both run in one of its
// executions: they sit in the two branches of one `if` that no loop or
// lambda of the function encloses (thresholding's `if (large) launch; else
// run serially`).
bool exclusive(clang::ASTContext &Ctx, const clang::Stmt *A, const clang::Stmt *B) {
  std::map<const void *, const void *> Through; // an ancestor of A: its child towards A
  clang::DynTypedNode Node = clang::DynTypedNode::create(*A);
  while (std::optional<clang::DynTypedNode> Up = above(Ctx, Node)) {
    Through[Up->getMemoizationData()] = Node.getMemoizationData();
    Node = *Up;
  }
  Node = clang::DynTypedNode::create(*B);
  while (std::optional<clang::DynTypedNode> Up = above(Ctx, Node)) {
    auto Common = Through.find(Up->getMemoizationData());
    if (Common == Through.end()) {
      Node = *Up;
      continue;
    }
    const auto *If = Up->get<clang::IfStmt>();
    const void *FromA = Common->second, *FromB = Node.getMemoizationData();
    if (!If || !If->getElse() || FromA == FromB ||
        (FromA != If->getThen() && FromA != If->getElse()) ||
        (FromB != If->getThen() && FromB != If->getElse()))
      return false;
    for (std::optional<clang::DynTypedNode> Outer = above(Ctx, *Up); Outer;
         Outer = above(Ctx, *Outer))
      if (isRepetition(*Outer))
        return false;
    return true;
  }
  return false;
}

// Every call between functions defined in the translation unit, every
// function that launches from device code, and the functions whose address
// is taken (they may be called anywhere, any number of times).
class CallCollector : public clang::RecursiveASTVisitor<CallCollector> {
public:
  explicit CallCollector(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  // A template's calls are resolved in its instantiations, which stand for
  // their pattern, as launch sites do.
  bool shouldVisitTemplateInstantiations() const { return true; }

  // Functions and member functions alike; a lambda's body stays its
  // enclosing function's.
  bool TraverseDecl(clang::Decl *D) {
    auto *F = llvm::dyn_cast_or_null<clang::FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody() ||
        llvm::isa<clang::CXXMethodDecl>(F) &&
            llvm::cast<clang::CXXMethodDecl>(F)->getParent()->isLambda())
      return clang::RecursiveASTVisitor<CallCollector>::TraverseDecl(D);
    const clang::FunctionDecl *Outer = Current;
    Current = patternOf(F);
    bool Result = clang::RecursiveASTVisitor<CallCollector>::TraverseDecl(D);
    Current = Outer;
    return Result;
  }

  bool VisitCallExpr(clang::CallExpr *Call) {
    if (!Current)
      return true;
    if (llvm::isa<clang::CUDAKernelCallExpr>(Call)) {
      if (isDeviceHelper(*Current) || Current->hasAttr<clang::CUDAGlobalAttr>()) {
        Launching.insert(Current);
        LaunchesIn[Current].push_back(Call);
      }
      return true;
    }
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !isDeviceHelper(*Callee))
      return true;
    Called.insert(Call->getCallee()->IgnoreParenImpCasts());
    // The same call is met again in every instantiation of its function.
    if (!Seen.insert({Current, Call->getBeginLoc().getRawEncoding()}).second)
      return true;
    Callee = patternOf(Callee);
    Callers[Callee].push_back({Current, Call, repeated(Call)});
    Calls[Current].insert(Callee);
    CallsIn[Current].push_back({Call, Callee});
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    auto *F = llvm::dyn_cast<clang::FunctionDecl>(Ref->getDecl());
    if (F && isDeviceHelper(*F))
      References.push_back({Ref, patternOf(F)});
    return true;
  }

  // A function as the analysis names it: a template instantiation by its
  // pattern, every declaration by the first.
  static const clang::FunctionDecl *patternOf(const clang::FunctionDecl *F) {
    if (const clang::FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
      F = Pattern;
    return F->getCanonicalDecl();
  }

  // Functions named other than as a call's callee: their address is taken.
  std::set<const clang::FunctionDecl *> addressTaken() const {
    std::set<const clang::FunctionDecl *> Taken;
    for (auto [Ref, F] : References)
      if (!Called.count(Ref))
        Taken.insert(F);
    return Taken;
  }

  std::map<const clang::FunctionDecl *, std::vector<CallSite>> Callers;
  std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>> Calls;
  std::map<const clang::FunctionDecl *,
           std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>>>
      CallsIn;
  std::map<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> LaunchesIn;
  std::set<const clang::FunctionDecl *> Launching;

private:
  bool repeated(const clang::Stmt *S) {
    for (std::optional<clang::DynTypedNode> Up = above(Ctx, clang::DynTypedNode::create(*S)); Up;
         Up = above(Ctx, *Up))
      if (isRepetition(*Up))
        return true;
    return false;
  }

  clang::ASTContext &Ctx;
  const clang::FunctionDecl *Current = nullptr;
  std::set<const clang::Expr *> Called;
  std::set<std::pair<const clang::FunctionDecl *, unsigned>> Seen;
  std::vector<std::pair<const clang::DeclRefExpr *, const clang::FunctionDecl *>> References;
};

std::string quoted(const clang::FunctionDecl *F) { return "'" + F->getNameAsString() + "'"; }

} // namespace

void markUnseenLaunchOrder(clang::ASTContext &Ctx, LaunchAnalysis &A) {
  CallCollector Collector(Ctx);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  // Functions that launch, themselves or through the functions they call.
  std::set<const clang::FunctionDecl *> &Launching = Collector.Launching;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Caller, Callees] : Collector.Calls)
      for (const clang::FunctionDecl *Callee : Callees)
        if (Launching.count(Callee) && Launching.insert(Caller).second)
          Changed = true;
  }
  const std::set<const clang::FunctionDecl *> AddressTaken = Collector.addressTaken();
  // Why a thread may run a helper's launches more than once, or after other
  // launches: the reason of each launching helper, settled from its callers
  // (a helper whose caller has a reason inherits it).
  std::map<const clang::FunctionDecl *, std::string> Why;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const clang::FunctionDecl *H : Launching) {
      if (!isDeviceHelper(*H) || Why.count(H))
        continue;
      const std::vector<CallSite> &Sites = Collector.Callers[H];
      std::string Reason;
      if (AddressTaken.count(H))
        Reason = "its address is taken, so it may be called any number of times";
      // Two calls a thread may both make: in one function, on paths that can
      // meet. Calls in different functions meet only through a common caller
      // that reaches both, which gives those functions a reason of their own
      // (they call other functions that launch), inherited below.
      for (size_t I = 0; I < Sites.size() && Reason.empty(); ++I)
        for (size_t J = I + 1; J < Sites.size(); ++J)
          if (Sites[I].Caller == Sites[J].Caller && !exclusive(Ctx, Sites[I].Call, Sites[J].Call)) {
            Reason = "it is called at 2 places in " + quoted(Sites[I].Caller);
            break;
          }
      for (const CallSite &C : Sites) {
        if (!Reason.empty())
          break;
        if (C.Repeated)
          Reason = "it is called in a loop or a lambda of " + quoted(C.Caller);
        else if (C.Caller == H)
          Reason = "it calls itself";
        else if (Why.count(C.Caller))
          Reason = "its caller " + quoted(C.Caller) +
                   " may run more than once or after other "
                   "launches";
        else if (std::any_of(Collector.CallsIn[C.Caller].begin(), Collector.CallsIn[C.Caller].end(),
                             [&](const auto &Other) {
                               return Other.second != H && Launching.count(Other.second) &&
                                      !exclusive(Ctx, Other.first, C.Call);
                             }))
          Reason = quoted(C.Caller) + " also calls other functions that launch";
        else if (std::any_of(Collector.LaunchesIn[C.Caller].begin(),
                             Collector.LaunchesIn[C.Caller].end(),
                             [&](const clang::CallExpr *L) { return !exclusive(Ctx, L, C.Call); }))
          Reason = "its caller " + quoted(C.Caller) + " launches kernels too";
      }
      if (!Reason.empty()) {
        Why[H] = Reason;
        Changed = true;
      }
    }
  }
  for (LaunchSite &S : A.Sites) {
    if (!S.DeviceSide || !isOrderedStream(S.StreamKind) || S.InDeferredClosure)
      continue;
    const clang::FunctionDecl *Parent = CallCollector::patternOf(S.Parent);
    auto Reason = Why.find(Parent);
    if (Reason != Why.end()) {
      S.FollowsUnseenLaunches = true;
      S.UnseenOrder = "the launch is in __device__ function " + quoted(Parent) + ", and " +
                      Reason->second +
                      ": launches of other calls may come before it into the "
                      "same stream";
    }
    for (const auto &[Call, Callee] : Collector.CallsIn[Parent])
      if (Launching.count(Callee) && !exclusive(Ctx, S.Call, Call)) {
        S.FollowsUnseenLaunches = S.FollowedByUnseenLaunches = true;
        S.UnseenOrder = quoted(Parent) + " also calls " + quoted(Callee) +
                        ", which launches kernels: its launches may come before or after this "
                        "one into the same stream";
        break;
      }
  }
}

} // namespace launchopt

#include "FusionExtraction.h"

#include "FusionScratch.h"
#include "FusionWrappers.h"
#include "Analysis/InstructionEstimate.h"
#include "Analysis/KernelFeatures.h"
#include "Analysis/TileCache.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include <deque>
#include <functional>
#include <map>
#include <set>

namespace launchopt {

using namespace clang;

namespace {

// The variable an argument names, following `T *p = q;` copies.
const VarDecl *allocationOf(const Expr *E) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!V)
      return nullptr;
    if (isa<ParmVarDecl>(V) || !V->hasInit() || !V->getType()->isPointerType())
      return V;
    const auto *Next = dyn_cast<DeclRefExpr>(V->getInit()->IgnoreParenCasts());
    if (!Next)
      return V;
    E = Next;
  }
  return nullptr;
}

// Whether a launched kernel synchronises its block. Shared tiles that only
// cache an array (Analysis/TileCache.h) do not count when the launch's block
// stores every element and no array the kernel writes may be the cached one:
// its body copies read the array instead, with no barrier.
bool keepsBarrier(const FunctionDecl &Kernel, const ExtractedLaunch &L, const OriginalKernel &K) {
  if (!computeKernelFeatures(Kernel).Barriers.count("__syncthreads"))
    return false;
  std::optional<TileCaches> Caches = findTileCaches(Kernel);
  if (!Caches || !L.ConstantBlock || !fillsTiles(*Caches, K.BlockDim))
    return true;
  auto AllocationOf = [&](unsigned Param) {
    return Param < L.ArgumentAllocation.size() ? L.ArgumentAllocation[Param] : -1;
  };
  for (const TileCache &C : Caches->Caches) {
    int Cached = AllocationOf(C.Source->getFunctionScopeIndex());
    if (Cached < 0)
      return true;
    for (const ParameterAccess &P : L.Access.Parameters)
      if (P.Writes && P.Index != C.Source->getFunctionScopeIndex() &&
          (AllocationOf(P.Index) < 0 || AllocationOf(P.Index) == Cached))
        return true;
  }
  return false;
}

// Block dimensions from `dim3 block(32, 8)` (a local the launch names) or
// an integer constant; false (and 256) when the block is not such a constant.
bool blockDims(const ASTContext &Ctx, const Expr *Block, unsigned Dims[3]) {
  Dims[0] = 256, Dims[1] = Dims[2] = 1;
  const Expr *E = writtenOperand(Block)->IgnoreParenImpCasts();
  const CXXConstructExpr *C = nullptr;
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (!V || !V->isLocalVarDecl())
      return false;
    C = dyn_cast_or_null<CXXConstructExpr>(V->getInit());
  } else {
    C = dyn_cast<CXXConstructExpr>(E);
  }
  if (!C) {
    Expr::EvalResult Value;
    if (E->isValueDependent() || !E->EvaluateAsInt(Value, Ctx))
      return false;
    Dims[0] = Value.Val.getInt().getZExtValue();
    return true;
  }
  bool Known = true;
  for (unsigned I = 0; I < C->getNumArgs() && I < 3; ++I) {
    Expr::EvalResult Value;
    if (isa<CXXDefaultArgExpr>(C->getArg(I)))
      continue;
    if (!C->getArg(I)->isValueDependent() && C->getArg(I)->EvaluateAsInt(Value, Ctx))
      Dims[I] = Value.Val.getInt().getZExtValue();
    else
      Known = false;
  }
  return Known;
}

std::string operandText(const ASTContext &Ctx, const Expr *E) {
  if (!E)
    return "";
  std::optional<FileRange> R = spelledRange(Ctx, writtenOperand(E)->getSourceRange());
  return R ? textOf(Ctx, *R) : "?";
}

unsigned lineOf(const ASTContext &Ctx, SourceLocation Loc) {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getSpellingLineNumber(SM.getExpansionLoc(Loc));
}

// A host call between launches that orders device work: a copy or memset
// (the data a kernel reads or writes changes between the launches) or a
// synchronisation (the host waits for the launches before it).
const CallExpr *orderingCall(const Stmt *S, bool &Copy) {
  if (!S)
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = Call->getDirectCallee()) {
      llvm::StringRef Name = F->getName();
      Copy = Name.starts_with("cudaMemcpy") || Name.starts_with("cudaMemset");
      if (Copy || Name == "cudaDeviceSynchronize" || Name == "cudaStreamSynchronize" ||
          Name == "cudaEventSynchronize" || Name == "cudaStreamWaitEvent")
        return Call;
    }
  for (const Stmt *Child : S->children())
    if (const CallExpr *Found = orderingCall(Child, Copy))
      return Found;
  return nullptr;
}

// Why a statement between two launches separates them (paper §II-C: host
// copies and stream changes bound what can fuse); any other statement
// separates them too, as its effect on the arrays is not analysed.
std::string boundaryOf(const ASTContext &Ctx, const Stmt *S) {
  bool Copy = false;
  if (const CallExpr *Call = orderingCall(S, Copy))
    return std::string(Copy ? "host copy '" : "synchronisation '") +
           Call->getDirectCallee()->getNameAsString() + "' at line " +
           std::to_string(lineOf(Ctx, Call->getBeginLoc())) + " between the launches";
  return "host statement at line " + std::to_string(lineOf(Ctx, S->getBeginLoc())) +
         " between the launches";
}

// Boundaries from copies and synchronisations outrank other statements in
// what the report names.
bool isOrderingBoundary(llvm::StringRef Why) { return !Why.starts_with("host statement"); }

// The arrays launch L reads or writes, each resolved to its allocation (a
// new one joins the problem), as uses of kernel K; an argument that resolves
// to none is noted in K's launch configuration.
void recordArrayUses(const LaunchSite &Site, const KernelAccess &Access,
                     const std::function<const VarDecl *(const Expr *)> &AllocationOf,
                     std::map<const VarDecl *, unsigned> &AllocationIds, FusionExtraction &X,
                     ExtractedLaunch &L, OriginalKernel &K) {
  for (const ParameterAccess &A : Access.Parameters) {
    if (A.Index >= Site.Arguments.size() || (!A.Reads && !A.Writes))
      continue;
    const VarDecl *V = AllocationOf(Site.Arguments[A.Index]);
    if (!V) {
      K.LaunchConfig +=
          " (argument " + std::to_string(A.Index) + " unresolved #" + std::to_string(Site.Id) + ")";
      continue;
    }
    auto [Entry, Fresh] = AllocationIds.try_emplace(V, X.Problem.Arrays.size());
    if (Fresh) {
      X.Problem.Arrays.push_back({V->getNameAsString(), A.ElementBytes});
      X.Allocations.push_back(V);
    }
    L.ArgumentAllocation[A.Index] = Entry->second;
    ArrayUse U;
    U.Array = Entry->second;
    U.Reads = A.Reads;
    U.Writes = A.Writes;
    U.ThreadLoad = std::max<size_t>(1, A.ReadOffsets.size());
    U.HaloRadius = A.HaloRadius;
    U.Indirect = A.Indirect;
    U.WritesEverySite = A.WritesEverySite;
    K.Uses.push_back(U);
  }
}

// The sequence of one host function: its launches in the order they run,
// with those behind wrapper calls inlined and those in loops and branches in
// segments of their own.
class SequenceExtractor {
public:
  SequenceExtractor(ASTContext &Ctx, const LaunchAnalysis &Launches,
                    const FusionExtractionOptions &Options, FusionExtraction &X)
      : Ctx(Ctx), Launches(Launches), Options(Options), X(X) {
    for (const LaunchSite &S : Launches.Sites)
      if (!S.DeviceSide)
        SiteOf[S.Call] = &S;
  }

  // The host function whose launches are fused: the one named (in the main
  // file, launching directly or through wrappers), or the one with the most
  // launches of its own.
  const FunctionDecl *hostFunction() {
    const SourceManager &SM = Ctx.getSourceManager();
    const FunctionDecl *Host = nullptr;
    size_t Most = 0;
    for (const auto &[Parent, Ids] : Launches.SitesByParent) {
      if (Launches.Sites[Ids.front()].DeviceSide || !Parent ||
          !SM.isInMainFile(SM.getExpansionLoc(Parent->getLocation())))
        continue;
      if (Options.Function.empty() && Ids.size() > Most) {
        Host = Parent;
        Most = Ids.size();
      }
    }
    if (Options.Function.empty())
      return Host;
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      const auto *F = dyn_cast<FunctionDecl>(D);
      if (F && F->getNameAsString() == Options.Function && F->doesThisDeclarationHaveABody() &&
          SM.isInMainFile(SM.getExpansionLoc(F->getLocation())) && launches(F))
        return F;
    }
    return nullptr;
  }

  void extract(const FunctionDecl &Host) {
    for (const Stmt *S : cast<CompoundStmt>(Host.getBody())->body())
      statement(S, nullptr);
  }

  // Launches of the host function left out of the sequence (in a nested
  // statement the walk does not enter).
  void remarkUnvisited(const FunctionDecl &Host) {
    for (unsigned Id : Launches.SitesByParent.at(&Host)) {
      const LaunchSite &S = Launches.Sites[Id];
      if (!Visited.count(S.Call))
        remark(S, "not in a statement sequence of '" + Host.getNameAsString() +
                      "' (a loop or branch body with a launch, or the outermost block)");
    }
  }

private:
  ASTContext &Ctx;
  const LaunchAnalysis &Launches;
  const FusionExtractionOptions &Options;
  FusionExtraction &X;
  std::map<const Stmt *, const LaunchSite *> SiteOf; // every host-side launch
  std::set<const Stmt *> Visited;
  std::map<const FunctionDecl *, bool> Launching; // memo of launches()
  std::deque<WrapperCall> Calls;                  // stable: launches point into it
  unsigned Segment = 0;
  bool Pending = false; // a non-launch statement after the last launch
  std::string Boundary; // why, for the next launch
  std::string LastStream;
  std::map<const VarDecl *, unsigned> AllocationIds;
  std::map<std::string, unsigned> Seen;
  unsigned LeftOut = 0; // launches left out of the sequence so far

  void remark(const LaunchSite &S, std::string Why) {
    LaunchRemark R = remarkFor(S, "fuse");
    R.Message = std::move(Why);
    X.Remarks.push_back(std::move(R));
  }

  void separate(std::string Why) {
    if (X.Launches.empty())
      return;
    Pending = true;
    if (Boundary.empty() || (!isOrderingBoundary(Boundary) && isOrderingBoundary(Why)))
      Boundary = std::move(Why);
  }

  unsigned line(const Stmt *S) const { return lineOf(Ctx, S->getBeginLoc()); }

  const LaunchSite *launchOf(const Stmt *S) const {
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S))
      S = Cleanups->getSubExpr();
    auto It = SiteOf.find(S);
    return It == SiteOf.end() ? nullptr : It->second;
  }

  // Whether F launches kernels, itself or through the host functions it
  // calls.
  bool launches(const FunctionDecl *F) {
    F = F->getDefinition();
    if (!F || !F->hasBody() || F->hasAttr<CUDAGlobalAttr>() || F->hasAttr<CUDADeviceAttr>())
      return false;
    auto [It, Fresh] = Launching.try_emplace(F, false);
    if (Fresh)
      It->second = contains(F->getBody());
    return It->second;
  }

  bool contains(const Stmt *S) {
    if (!S)
      return false;
    if (launchOf(S))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (!isa<CUDAKernelCallExpr>(Call) && launches(Callee))
          return true;
    for (const Stmt *Child : S->children())
      if (contains(Child))
        return true;
    return false;
  }

  // The wrapper a statement `wrapper(args);` calls, when it launches.
  const FunctionDecl *wrapperCalled(const Stmt *S) {
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S))
      S = Cleanups->getSubExpr();
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || isa<CUDAKernelCallExpr>(Call) || isa<CXXMemberCallExpr>(Call))
      return nullptr;
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && launches(Callee) ? Callee->getDefinition() : nullptr;
  }

  void statement(const Stmt *S, const WrapperCall *Call) {
    if (const LaunchSite *Site = launchOf(S)) {
      Visited.insert(Site->Call);
      launch(S, *Site, Call);
      return;
    }
    if (const FunctionDecl *Wrapper = wrapperCalled(S)) {
      inlineCall(S, *Wrapper, Call);
      return;
    }
    if (Call) // a local of the wrapper (inliningObstacle allows no more)
      return;
    // paper §II-C: each iteration runs the body's sequence once, so the
    // body's launches fuse among themselves but not with launches around
    // the loop; a branch's likewise.
    if (contains(S)) {
      if (const Stmt *Body = loopBody(S)) {
        separate("loop at line " + std::to_string(line(S)) + " around the launches");
        sequence(Body);
        separate("loop at line " + std::to_string(line(S)) + " before the launch");
        return;
      }
      if (const auto *If = dyn_cast<IfStmt>(S); If && !If->getInit() && !If->isConsteval()) {
        separate("branch at line " + std::to_string(line(S)) + " around the launches");
        sequence(If->getThen());
        separate("branch at line " + std::to_string(line(S)) + " around the launches");
        sequence(If->getElse());
        separate("branch at line " + std::to_string(line(S)) + " before the launch");
        return;
      }
    }
    separate(boundaryOf(Ctx, S));
  }

  static const Stmt *loopBody(const Stmt *S) {
    if (const auto *For = dyn_cast<ForStmt>(S))
      return For->getBody();
    if (const auto *While = dyn_cast<WhileStmt>(S))
      return While->getBody();
    if (const auto *Do = dyn_cast<DoStmt>(S))
      return Do->getBody();
    if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
      return Range->getBody();
    return nullptr;
  }

  void sequence(const Stmt *S) {
    if (!S)
      return;
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Inner : Block->body())
        statement(Inner, nullptr);
      return;
    }
    // A single statement as the body: a launch there has no statement
    // range of its own to put a new sequence in.
    separate(boundaryOf(Ctx, S));
  }

  void inlineCall(const Stmt *S, const FunctionDecl &Wrapper, const WrapperCall *Outer) {
    std::string Name = Wrapper.getNameAsString();
    std::string Where = "call of '" + Name + "' at line " + std::to_string(line(S));
    std::string Obstacle = inliningObstacle(
        Ctx, Wrapper, [&](const Stmt *Inner) { return launchOf(Inner) || wrapperCalled(Inner); });
    const Stmt *Inner = S;
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Inner))
      Inner = Cleanups->getSubExpr();
    const auto *Call = cast<CallExpr>(Inner);
    WrapperCall W;
    W.Wrapper = &Wrapper;
    W.Outer = Outer;
    if (Outer) {
      W.Statement = Outer->Statement;
      W.Line = Outer->Line;
    } else if (std::optional<FileRange> Range = statementRange(S)) {
      W.Statement = *Range;
      W.Line = line(S);
    } else if (Obstacle.empty()) {
      Obstacle = "the call comes from a macro";
    }
    for (unsigned I = 0; Obstacle.empty() && I < Wrapper.getNumParams(); ++I) {
      const ParmVarDecl *P = Wrapper.getParamDecl(I);
      if (I >= Call->getNumArgs() || isa<CXXDefaultArgExpr>(Call->getArg(I))) {
        Obstacle = "parameter '" + P->getNameAsString() + "' takes its default argument";
        break;
      }
      std::optional<std::string> Text = substitutedText(Ctx, Call->getArg(I), Outer);
      if (!Text || (P->getType()->isReferenceType() && !isa<DeclRefExpr>(Call->getArg(I))))
        Obstacle = "argument " + std::to_string(I) + " cannot be written in its place";
      else if (Call->getArg(I)->HasSideEffects(Ctx))
        Obstacle = "argument " + std::to_string(I) + " has side effects";
      else {
        W.Text[P] = *Text;
        W.Argument[P] = Call->getArg(I);
      }
    }
    if (!Obstacle.empty()) {
      for (const auto &[Launch, Site] : SiteOf)
        if (Site->Parent == &Wrapper)
          remark(*Site, "the " + Where + " is not inlined: " + Obstacle);
      separate(Where + " that is not inlined");
      return;
    }
    // The call statement gives way to the new sequence only when every
    // launch under it joins the sequence: otherwise the sequence so far is
    // taken back and the call stays as written.
    State Before = state();
    unsigned LeftOutBefore = LeftOut;
    Calls.push_back(std::move(W));
    const WrapperCall *Inlined = &Calls.back();
    for (const Stmt *Inner : cast<CompoundStmt>(Wrapper.getBody())->body())
      statement(Inner, Inlined);
    if (LeftOut == LeftOutBefore || Outer)
      return;
    restore(Before);
    separate(Where + " with a launch left out of the sequence");
  }

  // What a rejected wrapper call takes back.
  struct State {
    size_t Launches, Arrays;
    unsigned Segment;
    bool Pending;
    std::string Boundary, LastStream;
    std::map<std::string, unsigned> Seen;
  };
  State state() const {
    return {
        X.Launches.size(), X.Problem.Arrays.size(), Segment, Pending, Boundary, LastStream, Seen};
  }
  void restore(const State &S) {
    X.Launches.resize(S.Launches);
    X.Problem.Kernels.resize(S.Launches);
    X.Problem.Arrays.resize(S.Arrays);
    X.Allocations.resize(S.Arrays);
    for (auto It = AllocationIds.begin(); It != AllocationIds.end();)
      It = It->second >= S.Arrays ? AllocationIds.erase(It) : std::next(It);
    Segment = S.Segment;
    Pending = S.Pending;
    Boundary = S.Boundary;
    LastStream = S.LastStream;
    Seen = S.Seen;
  }

  // The statement's range in the main file with the ';' that ends it.
  std::optional<FileRange> statementRange(const Stmt *S) const {
    std::optional<FileRange> Range = writtenRange(Ctx, S->getSourceRange());
    if (!Range)
      return std::nullopt;
    llvm::StringRef Rest = Ctx.getSourceManager()
                               .getBufferData(Ctx.getSourceManager().getMainFileID())
                               .substr(Range->End);
    Range->End += Rest.find(';') + 1;
    return Range;
  }

  // The variable an argument names, through the wrapper calls it passes.
  const VarDecl *allocation(const Expr *E, const WrapperCall *Call) const {
    const VarDecl *V = allocationOf(E);
    for (; Call && V; Call = Call->Outer) {
      const auto *P = dyn_cast<ParmVarDecl>(V);
      auto It = P ? Call->Argument.find(P) : Call->Argument.end();
      if (It == Call->Argument.end())
        break;
      V = allocationOf(It->second);
    }
    return V;
  }

  void launch(const Stmt *S, const LaunchSite &Site, const WrapperCall *Call) {
    auto Leave = [&](std::string Why) {
      ++LeftOut;
      remark(Site, std::move(Why));
      separate("launch of '" + Site.ChildName + "' at line " + std::to_string(line(S)) +
               " left out of the sequence");
    };
    if (!Site.Child)
      return Leave("kernel definition not visible (" + Site.UnresolvedReason + ")");
    KernelAccess Access = analyzeParameterAccess(*Site.Child);
    if (!Access.Irregular.empty())
      return Leave(Access.Irregular);
    ExtractedLaunch L;
    if (Call) {
      L.Statement = Call->Statement;
      L.Wrapper = Call->Wrapper->getNameAsString();
    } else if (std::optional<FileRange> Range = statementRange(S)) {
      L.Statement = *Range;
    } else {
      return Leave("the launch comes from a macro");
    }
    std::optional<std::string> Statement = substitutedText(Ctx, Site.Call, Call);
    std::optional<std::string> Grid = substitutedText(Ctx, Site.Grid, Call);
    std::optional<std::string> Block = substitutedText(Ctx, Site.Block, Call);
    bool Written = Statement && Grid && Block;
    for (const Expr *A : Site.Arguments) {
      std::optional<std::string> Text = substitutedText(Ctx, A, Call);
      Written &= Text.has_value();
      L.ArgumentText.push_back(Text.value_or(""));
    }
    if (Call && !Written)
      return Leave("the launch in wrapper '" + L.Wrapper +
                   "' cannot be written in the caller (a macro, or a local of the wrapper)");
    L.StatementText = Call ? *Statement + ";" : textOf(Ctx, L.Statement);
    L.GridText = Grid.value_or("");
    L.BlockText = Block.value_or("");

    std::string Stream = Site.Stream ? operandText(Ctx, Site.Stream) : "";
    if (Call && Site.Stream)
      Stream = substitutedText(Ctx, Site.Stream, Call).value_or("?");
    if (!X.Launches.empty() && !Pending && Stream != LastStream)
      separate("launch into " +
               (Stream.empty() ? "the default stream" : "stream '" + Stream + "'") +
               " after one into " +
               (LastStream.empty() ? "the default stream" : "stream '" + LastStream + "'"));
    LastStream = Stream;
    if (Pending)
      ++Segment;

    L.Site = &Site;
    L.Access = Access;
    L.ArgumentAllocation.assign(Site.Arguments.size(), -1);
    OriginalKernel K;
    unsigned Count = ++Seen[Site.ChildName];
    K.Name = Site.ChildName + (Count > 1 ? "#" + std::to_string(Count) : "");
    K.Segment = Segment;
    K.SegmentBoundary = Pending ? Boundary : "";
    Pending = false;
    Boundary.clear();
    K.LaunchConfig = L.GridText + ", " + L.BlockText;
    if (!Call)
      K.LaunchConfig = operandText(Ctx, Site.Grid) + ", " + operandText(Ctx, Site.Block);
    if (Site.SharedMemory || Site.Stream)
      K.LaunchConfig += ", " + operandText(Ctx, Site.SharedMemory) + ", " +
                        operandText(Ctx, Site.Stream) + " #" + std::to_string(Site.Id);
    L.ConstantBlock = blockDims(Ctx, Site.Block, K.BlockDim);
    K.ConstantBlock = L.ConstantBlock;
    K.InstructionsPerSite = estimatedInstructions(*Site.Child).value_or(0);
    K.Blocks = static_cast<unsigned long long>(Options.Sites / K.threadsPerBlock());
    recordArrayUses(
        Site, Access, [&](const Expr *E) { return allocation(E, Call); }, AllocationIds, X, L, K);
    K.Barrier = keepsBarrier(*Site.Child, L, K);
    X.Problem.Kernels.push_back(std::move(K));
    X.Launches.push_back(std::move(L));
  }
};

} // namespace

FusionExtraction extractFusionProblem(ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const FusionExtractionOptions &Options) {
  FusionExtraction X;
  SequenceExtractor Extractor(Ctx, Launches, Options, X);
  const FunctionDecl *Host = Extractor.hostFunction();
  X.Host = Host;
  if (!Host || !Host->hasBody())
    return X;
  Extractor.extract(*Host);
  if (Launches.SitesByParent.count(Host))
    Extractor.remarkUnvisited(*Host);
  markScratchArrays(X);
  return X;
}

} // namespace launchopt

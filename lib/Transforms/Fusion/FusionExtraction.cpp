#include "FusionExtraction.h"

#include "clang/AST/ParentMapContext.h"
#include <map>

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

// The host function whose launches are fused: the one named, or the one
// with the most launches.
const FunctionDecl *hostFunction(const LaunchAnalysis &Launches, const std::string &Function) {
  const FunctionDecl *Host = nullptr;
  size_t Most = 0;
  for (const auto &[Parent, Ids] : Launches.SitesByParent) {
    if (Launches.Sites[Ids.front()].DeviceSide)
      continue;
    bool Named = !Function.empty() && Parent->getNameAsString() == Function;
    if (Named || (Function.empty() && Ids.size() > Most)) {
      Host = Parent;
      Most = Ids.size();
    }
  }
  return Host;
}

// The arrays launch L reads or writes, each resolved to its allocation (a
// new one joins the problem), as uses of kernel K; an argument that resolves
// to none is noted in K's launch configuration.
void recordArrayUses(const LaunchSite &Site, const KernelAccess &Access,
                     std::map<const VarDecl *, unsigned> &AllocationIds, FusionExtraction &X,
                     ExtractedLaunch &L, OriginalKernel &K) {
  for (const ParameterAccess &A : Access.Parameters) {
    if (A.Index >= Site.Arguments.size() || (!A.Reads && !A.Writes))
      continue;
    const VarDecl *V = allocationOf(Site.Arguments[A.Index]);
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
    K.Uses.push_back(U);
  }
}

} // namespace

FusionExtraction extractFusionProblem(ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const FusionExtractionOptions &Options) {
  FusionExtraction X;
  const FunctionDecl *Host = hostFunction(Launches, Options.Function);
  X.Host = Host;
  if (!Host || !Host->hasBody())
    return X;
  std::map<const Stmt *, const LaunchSite *> SiteOf;
  for (unsigned Id : Launches.SitesByParent.at(Host))
    SiteOf[Launches.Sites[Id].Call] = &Launches.Sites[Id];

  auto Remark = [&](const LaunchSite &S, std::string Why) {
    LaunchRemark R = remarkFor(S, "fuse");
    R.Message = std::move(Why);
    X.Remarks.push_back(std::move(R));
  };

  // Only launches that are statements of the function's outermost block
  // form the sequence; anything else between them, and a launch into
  // another stream, starts a new segment.
  unsigned Segment = 0;
  bool Pending = false; // a non-launch statement after the last launch
  std::string Boundary; // why, for the next launch
  std::string LastStream;
  auto Separate = [&](std::string Why) {
    Pending = true;
    if (Boundary.empty() || (!isOrderingBoundary(Boundary) && isOrderingBoundary(Why)))
      Boundary = std::move(Why);
  };
  std::map<const VarDecl *, unsigned> AllocationIds;
  std::map<std::string, unsigned> Seen;
  const auto *Body = cast<CompoundStmt>(Host->getBody());
  for (const Stmt *S : Body->body()) {
    const Stmt *Inner = S;
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Inner))
      Inner = Cleanups->getSubExpr();
    auto It = SiteOf.find(Inner);
    if (It == SiteOf.end()) {
      if (!X.Launches.empty())
        Separate(boundaryOf(Ctx, S));
      continue;
    }
    const LaunchSite &Site = *It->second;
    SiteOf.erase(It);
    if (!Site.Child) {
      Remark(Site, "kernel definition not visible (" + Site.UnresolvedReason + ")");
      Separate("launch of '" + Site.ChildName + "' at line " +
               std::to_string(lineOf(Ctx, S->getBeginLoc())) + " left out of the sequence");
      continue;
    }
    KernelAccess Access = analyzeParameterAccess(*Site.Child);
    if (!Access.Irregular.empty()) {
      Remark(Site, "" + Access.Irregular);
      Separate("launch of '" + Site.ChildName + "' at line " +
               std::to_string(lineOf(Ctx, S->getBeginLoc())) + " left out of the sequence");
      continue;
    }
    std::optional<FileRange> Range = writtenRange(Ctx, S->getSourceRange());
    if (!Range) {
      Remark(Site, "the launch comes from a macro");
      Separate("launch of '" + Site.ChildName + "' at line " +
               std::to_string(lineOf(Ctx, S->getBeginLoc())) + " left out of the sequence");
      continue;
    }
    // Include the ';' that ends the statement.
    llvm::StringRef Rest = Ctx.getSourceManager()
                               .getBufferData(Ctx.getSourceManager().getMainFileID())
                               .substr(Range->End);
    Range->End += Rest.find(';') + 1;
    std::string Stream = Site.Stream ? operandText(Ctx, Site.Stream) : "";
    if (!X.Launches.empty() && !Pending && Stream != LastStream)
      Separate("launch into " +
               (Stream.empty() ? "the default stream" : "stream '" + Stream + "'") +
               " after one into " +
               (LastStream.empty() ? "the default stream" : "stream '" + LastStream + "'"));
    LastStream = Stream;
    if (Pending)
      ++Segment;

    ExtractedLaunch L;
    L.Site = &Site;
    L.Statement = *Range;
    L.Access = Access;
    L.ArgumentAllocation.assign(Site.Arguments.size(), -1);
    OriginalKernel K;
    unsigned Count = ++Seen[Site.ChildName];
    K.Name = Site.ChildName + (Count > 1 ? "#" + std::to_string(Count) : "");
    K.Segment = Segment;
    K.SegmentBoundary = Pending ? Boundary : "";
    Pending = false;
    Boundary.clear();
    K.LaunchConfig = operandText(Ctx, Site.Grid) + ", " + operandText(Ctx, Site.Block);
    if (Site.SharedMemory || Site.Stream)
      K.LaunchConfig += ", " + operandText(Ctx, Site.SharedMemory) + ", " +
                        operandText(Ctx, Site.Stream) + " #" + std::to_string(Site.Id);
    L.ConstantBlock = blockDims(Ctx, Site.Block, K.BlockDim);
    K.Blocks = static_cast<unsigned long long>(Options.Sites / K.threadsPerBlock());
    recordArrayUses(Site, Access, AllocationIds, X, L, K);
    X.Problem.Kernels.push_back(std::move(K));
    X.Launches.push_back(std::move(L));
  }
  for (const auto &[Call, Site] : SiteOf)
    Remark(*Site, "not a statement of the outermost block of '" + Host->getNameAsString() + "'");
  return X;
}

} // namespace launchopt

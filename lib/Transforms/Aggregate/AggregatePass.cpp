#include "AggregatePass.h"

#include "Transforms/Common/AtomicSlots.h"

#include "AggregationCode.h"
#include "AllocationAggregation.h"
#include "DeviceFunctionSites.h"
#include "HostLaunch.h"
#include "PendingLaunchLimit.h"
#include "PoolDemand.h"
#include "SiteAcceptance.h"
#include "SiteRewrite.h"
#include "ThreadPacking.h"
#include "Support/GeneratedNames.h"
#include "Transforms/Common/AtomicSlots.h"
#include "Transforms/Common/PlainBuild.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace launchopt {

const char *granularityName(AggregationGranularity G) {
  switch (G) {
  case AggregationGranularity::Warp:
    return "warp";
  case AggregationGranularity::Block:
    return "block";
  case AggregationGranularity::MultiBlock:
    return "multi-block";
  case AggregationGranularity::Grid:
    return "grid";
  }
  return "block";
}

namespace {

// The sites taken, the kernels whose text the pass rewrites, and the parents
// that need a direct copy: those whose sites use group scopes and that are
// launched from device code, whose launches that cannot be recorded go to
// the copy.
struct AcceptedSites {
  std::vector<AcceptedSite> Sites;
  std::map<const clang::FunctionDecl *, KernelCopy> Kernels;
  // Children of other files, by their declarations here, read as declared
  // (readKernelDeclaration): the defining file's output holds their copies.
  std::map<const clang::FunctionDecl *, KernelCopy> ExternalKernels;
  // Children of this file that other files launch (ExportedChildren), read
  // as those files read them: their records' field names.
  std::map<const clang::FunctionDecl *, KernelCopy> RecordViews;
  std::set<std::string> NeedDirectCopy;
  // Children whose aggregated grids pack child threads (--aggregate=threads).
  std::set<const clang::FunctionDecl *> Packed;
  // Children defined in an included header: their copies (argument structs,
  // part function, aggregated kernel, launcher) go after the main file's
  // #include of it, in their namespaces; the header is never edited.
  std::map<const clang::FunctionDecl *, IncludedPlacement> InHeader;
};

// The copy of a child of another file (the launches of one program share
// the child's aggregated kernel and launcher), or of one here that other
// files launch.
bool sharedWithOtherFiles(const LaunchAnalysis &Launches, const AcceptedSites &A,
                          const clang::FunctionDecl *Child) {
  return A.ExternalKernels.count(Child) || Launches.ExportedChildren.count(Child);
}

// --aggregate=threads: a child's aggregated grid packs its threads when they
// are independent, else keeps whole blocks as at the granularity alone; the
// sites' remarks say which, and why not.
void packThreads(const LaunchAnalysis &Launches, AcceptedSites &A,
                 std::vector<LaunchRemark> &Remarks) {
  std::map<const clang::FunctionDecl *, std::string> BlockerOf;
  for (const AcceptedSite &S : A.Sites)
    if (!BlockerOf.count(S.Child)) {
      // Whether a child of another file packs is not known here; the files
      // that share a child's launcher keep whole blocks alike.
      if (sharedWithOtherFiles(Launches, A, S.Child)) {
        BlockerOf[S.Child] = "the child's aggregated kernel is shared by several files of the "
                             "program, which keep whole blocks";
        continue;
      }
      if (std::any_of(A.Sites.begin(), A.Sites.end(), [&](const AcceptedSite &O) {
            return O.Child == S.Child && O.Code.Ordered;
          })) {
        BlockerOf[S.Child] = "a launch of it keeps its order with other launches of its parent "
                             "thread, and ordered scopes keep whole blocks";
        continue;
      }
      llvm::Error Blocker = threadPackingBlocker(Launches, *S.Child);
      BlockerOf[S.Child] = Blocker ? llvm::toString(std::move(Blocker)) : "";
      if (BlockerOf[S.Child].empty())
        A.Packed.insert(S.Child);
    }
  for (AcceptedSite &S : A.Sites) {
    const std::string &Blocker = BlockerOf[S.Child];
    S.Code.PackThreads = Blocker.empty();
    Remarks[S.RemarkIndex].Parameters["packing"] =
        Blocker.empty() ? "threads" : "whole child blocks: " + Blocker;
  }
}

// --aggregate=host: the site's scope, the grid the host launches for it,
// and what a launch that finds no room does; the remark says all three.
void describeHostSite(const LaunchAnalysis &Launches, const SiteDecisions &Decisions,
                      const LaunchSite &Site, bool WhenLarge, AggregatedSite &Code,
                      LaunchRemark &Remark) {
  Code.HostScope =
      generated::aggregate::HostScopePrefix + Site.ParentName + "_" + std::to_string(Site.Id);
  Code.ParentName = Site.ParentName;
  const SiteDecisions::HostBlock &Block = Decisions.HostBlocks.at(Site.Child);
  Code.HostBlockThreads = Block.Threads;
  Code.HostSharedMemory = Block.SharedMemory;
  Code.HostWhenLarge = WhenLarge;
  // The parent as written aggregates a smaller grid's launches itself, in
  // multi-block scopes (deviceSideOptions).
  if (WhenLarge)
    Code.GroupArray =
        generated::aggregate::GroupArrayPrefix + Site.ParentName + "_" + std::to_string(Site.Id);
  Code.SerialFallback = hostOverflowFunction(Launches, *Site.Child);
  std::vector<std::string> Lines;
  for (const LaunchSite *Host : hostLaunchesOf(Launches, *Site.Parent))
    Lines.push_back(std::to_string(Host->Position.Line));
  Remark.Parameters["host-launch"] =
      std::string(WhenLarge ? "for a parent grid of at least LAUNCHOPT_HOST_MIN_PARENT_THREADS "
                              "threads (" +
                                  generated::aggregate::HostedParentPrefix + Site.ParentName +
                                  " records them; a smaller grid is the parent as written, "
                                  "whose multi-block scopes launch them from the device), "
                            : std::string()) +
      "after the parent's launch at line " + llvm::join(Lines, ", line ") +
      ", in its stream: as many blocks of " +
      (Block.Threads.back() == 'u' ? Block.Threads.substr(0, Block.Threads.size() - 1)
                                   : Block.Threads) +
      " threads as the device holds, striding over the recorded " +
      (Block.Threads == "LAUNCHOPT_PACKED_BLOCK" ? "child threads" : "child blocks") +
      " (LAUNCHOPT_HOST_COUNT_COPY=1: the count copied back, exactly that many)";
  Remark.Parameters["overflow"] =
      Code.SerialFallback.empty()
          ? "launched from the device, or deferred when the pending-launch pool is near full "
            "(build with -rdc=true): the child's threads "
            "cannot run one by one in the launching thread, or it launches kernels itself"
          : "run by the launching thread (" + Code.SerialFallback + ")";
}

// An ordered site: the slot of its parent thread in the scope, and the
// remark's note of the launches it keeps its order with.
void orderSite(const LaunchAnalysis &Launches, const SiteDecisions &Decisions,
               const LaunchSite &Site, const AggregateOptions &Options, AggregatedSite &Code,
               LaunchRemark &Remark) {
  Code.Ordered = true;
  std::string Thread = Options.Granularity == AggregationGranularity::Warp
                           ? "launchopt::linearThread() % 32u"
                           : "launchopt::linearThread()";
  Code.OrderSlot = Site.OneThreadPerBlock ? "0u" : Thread;
  std::vector<std::string> Lines;
  for (size_t J : Decisions.Ordered) {
    const LaunchSite &Other = Launches.Sites[J];
    if (&Other != &Site && Other.Parent == Site.Parent)
      Lines.push_back("line " + std::to_string(Other.Position.Line));
  }
  // "line N" each time: the pipeline maps such mentions to the input's lines.
  Remark.Parameters["order"] = "kept with the launches at " + llvm::join(Lines, ", ") +
                               " (aggregated grids in the block's NULL stream, in order)";
}

// Turns the decisions into remarks (in site order) and accepted sites.
AcceptedSites acceptSites(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                          const SiteDecisions &Decisions, const DeviceFunctionScopes &Scopes,
                          const AggregateOptions &Options, std::vector<LaunchRemark> &Remarks) {
  bool GroupScopes = usesGroupScopes(Options.Granularity);
  AcceptedSites A;
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    LaunchRemark Remark = remarkFor(Site, "aggregate");
    if (!Decisions.Refusals[I].empty()) {
      Remark.Message = Decisions.Refusals[I];
      Remarks.push_back(Remark);
      continue;
    }
    const AcceptedLaunch &C = *Decisions.Candidates[I];
    std::vector<const clang::FunctionDecl *> ScopeKernels{Site.Parent};
    auto InFunction = Scopes.KernelsOf.find(Site.Id);
    if (InFunction != Scopes.KernelsOf.end()) {
      ScopeKernels = InFunction->second;
      std::vector<std::string> Names;
      for (const clang::FunctionDecl *K : ScopeKernels) {
        // findDeviceFunctionScopes read every one of them.
        A.Kernels.emplace(K, llvm::cantFail(readKernel(Ctx, *K)));
        Names.push_back("'" + K->getNameAsString() + "'");
      }
      Remark.Parameters["gathered-by"] = "the blocks of the kernels whose copies call the copy "
                                         "of '" +
                                         Site.ParentName + "': " + llvm::join(Names, ", ");
    } else {
      A.Kernels.emplace(Site.Parent, *C.Parent);
    }
    for (const clang::FunctionDecl *K : ScopeKernels)
      if (GroupScopes && Decisions.LaunchedFromDevice.count(K->getNameAsString()))
        A.NeedDirectCopy.insert(K->getNameAsString());
    const ExternalChild *External = acceptedExternalChild(Launches, Site);
    const clang::FunctionDecl *Child = External ? External->Declaration : Site.Child;
    if (External) {
      A.ExternalKernels.emplace(Child, C.Child);
      Remark.Parameters["defined-in"] = External->DefiningFile;
    } else {
      A.Kernels.emplace(Child, C.Child);
      noteChildInHeader(C, Child, A.InHeader, Remark);
    }
    AcceptedSite S{&Site, Child, C.Text, {}, Remarks.size()};
    S.ScopeKernels = ScopeKernels;
    if (InFunction != Scopes.KernelsOf.end())
      S.FunctionStart = C.ParentStart;
    if (!External)
      S.Code.ChildScope = childScope(*Child, *Site.Parent, ScopeKernels);
    if (InFunction == Scopes.KernelsOf.end())
      S.DeclarationsInNamespace = C.PrototypeInNamespace;
    S.Code.ScopeVar = generated::aggregate::ScopeVariablePrefix + std::to_string(Site.Id);
    if (Decisions.Ordered.count(I))
      orderSite(Launches, Decisions, Site, Options, S.Code, Remark);
    S.Code.ChildName = Site.ChildName;
    S.Code.TemplateArgs = C.TemplateArguments;
    S.Code.OneThreadPerBlock = Site.OneThreadPerBlock;
    if (Options.HostLaunch)
      describeHostSite(Launches, Decisions, Site, Options.HostWhenLarge, S.Code, Remark);
    else if (GroupScopes)
      S.Code.GroupArray =
          generated::aggregate::GroupArrayPrefix + Site.ParentName + "_" + std::to_string(Site.Id);
    A.Sites.push_back(S);
    Remark.Applied = true;
    Remark.Parameters["granularity"] =
        Options.HostWhenLarge ? "grid, launched by the host for large parent grids; multi-block (" +
                                    std::to_string(Options.GroupBlocks) +
                                    " blocks), launched from the device, for smaller ones"
        : Options.HostLaunch ? "grid, launched by the host"
        : Options.Granularity == AggregationGranularity::MultiBlock
            ? "multi-block (" + std::to_string(Options.GroupBlocks) +
                  " blocks, more in a grid past LAUNCHOPT_MAX_GROUP_LAUNCHES scopes)"
            : granularityName(Options.Granularity);
    Remark.Parameters["aggregated-kernel"] =
        generated::aggregate::AggregatedPrefix + Site.ChildName;
    if (std::optional<std::string> Combined = combinedAtomics(C.Child))
      Remark.Parameters["combined-atomics"] =
          *Combined + ": combined across the warp's lanes that name one address";
    Remarks.push_back(Remark);
  }
  for (AcceptedSite &S : A.Sites)
    S.Code.DirectChild =
        A.NeedDirectCopy.count(S.Code.ChildName)
            ? S.Code.ChildScope + directKernelName(S.Code.ChildName) + S.Code.TemplateArgs
            : "";
  if (Options.PackThreads)
    packThreads(Launches, A, Remarks);
  return A;
}

// The child as its argument structs and launcher name its parameters: as
// defined, or as every file of the program declares it when the structs are
// shared with other files (the same text in every output).
const KernelCopy &recordView(const AcceptedSites &A, const clang::FunctionDecl *Child) {
  if (auto External = A.ExternalKernels.find(Child); External != A.ExternalKernels.end())
    return External->second;
  if (auto Shared = A.RecordViews.find(Child); Shared != A.RecordViews.end())
    return Shared->second;
  return A.Kernels.at(Child);
}

// The argument structs and the aggregated kernel exist once per child, so an
// argument is passed once per scope only where it is uniform at every site
// of that child; a child other files of the program launch too has none
// (their sites are not seen here). A parent whose own launches are
// aggregated (here or from another file) runs several of them in one grid,
// whose multi-block and grid scopes then mix their parameters and
// dimensions. The sites' remarks list those arguments.
std::map<const clang::FunctionDecl *, UniformParameters>
uniformArgumentsOfChildren(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                           const AcceptedSites &A, AggregationGranularity G,
                           std::vector<LaunchRemark> &Remarks) {
  // The greatest fixed point from "every parameter uniform": a parameter of
  // an aggregated parent is alike in all launches one of its grids runs when
  // every site passes it a value alike in its own scope (by induction on
  // how deep the grid is nested), recursion included.
  std::map<const clang::FunctionDecl *, UniformParameters> UniformOf;
  for (const AcceptedSite &S : A.Sites)
    UniformOf[S.Child] = UniformParameters(S.Site->Arguments.size(), true);
  const UniformParameters NoneUniform; // a child other files aggregate too
  auto ParentUniform = [&](const clang::FunctionDecl *Parent) -> const UniformParameters * {
    for (const auto &[Child, Uniform] : UniformOf)
      if (Child->getCanonicalDecl() == Parent->getCanonicalDecl())
        return sharedWithOtherFiles(Launches, A, Child) ? &NoneUniform : &Uniform;
    for (const clang::FunctionDecl *Exported : Launches.ExportedChildren)
      if (Exported->getCanonicalDecl() == Parent->getCanonicalDecl())
        return &NoneUniform;
    return nullptr;
  };
  for (bool Changed = true; Changed;) {
    std::map<const clang::FunctionDecl *, UniformParameters> Next;
    for (const AcceptedSite &S : A.Sites) {
      UniformParameters Here = sharedWithOtherFiles(Launches, A, S.Child)
                                   ? UniformParameters()
                                   : uniformArgumentsAt(Ctx, S, G, ParentUniform(S.Site->Parent));
      auto [It, First] = Next.emplace(S.Child, Here);
      if (!First)
        for (size_t I = 0; I < It->second.size(); ++I)
          It->second[I] = It->second[I] && I < Here.size() && Here[I];
    }
    Changed = Next != UniformOf;
    UniformOf = std::move(Next);
  }
  for (const AcceptedSite &S : A.Sites) {
    const UniformParameters &Uniform = UniformOf[S.Child];
    std::vector<std::string> Names;
    const std::vector<std::string> &Params = recordView(A, S.Child).ParamNames;
    for (size_t I = 0; I < Uniform.size() && I < Params.size(); ++I)
      if (Uniform[I])
        Names.push_back(Params[I]);
    if (!Names.empty())
      Remarks[S.RemarkIndex].Parameters["uniform-arguments"] = llvm::join(Names, ", ");
  }
  return UniformOf;
}

// Each child's argument structs go before its definition or before the first
// parent that records its launches, whichever comes first (a child of
// another file: before the first parent); children in the order of their
// first accepted launch, then those only other files launch, so the output
// is stable.
void insertArgumentStructs(const AcceptedSites &A,
                           std::map<const clang::FunctionDecl *, UniformParameters> &UniformOf,
                           const std::vector<const clang::FunctionDecl *> &Exported,
                           SourceEdits &Edits) {
  std::vector<std::pair<const clang::FunctionDecl *, unsigned>> StructsAt;
  auto StructOf = [&](const clang::FunctionDecl *Child, unsigned At) {
    auto It = std::find_if(StructsAt.begin(), StructsAt.end(),
                           [&](const auto &P) { return P.first == Child; });
    if (It == StructsAt.end())
      It = StructsAt.insert(StructsAt.end(), {Child, At});
    It->second = std::min(It->second, At);
  };
  std::map<const clang::FunctionDecl *, const IncludedPlacement *> InNamespace;
  for (const AcceptedSite &S : A.Sites) {
    if (S.DeclarationsInNamespace)
      InNamespace.emplace(S.Child, &*S.DeclarationsInNamespace);
    unsigned ParentStart = ~0u;
    for (const clang::FunctionDecl *K : S.ScopeKernels)
      ParentStart = std::min(ParentStart, A.Kernels.at(K).Whole.Begin);
    StructOf(S.Child, A.Kernels.count(S.Child) && !A.InHeader.count(S.Child)
                          ? A.Kernels.at(S.Child).Whole.Begin
                          : ParentStart);
    StructOf(S.Child, ParentStart);
    if (S.FunctionStart)
      StructOf(S.Child, *S.FunctionStart);
  }
  for (const clang::FunctionDecl *Child : Exported)
    StructOf(Child, A.Kernels.at(Child).Whole.Begin);
  for (const auto &[Child, At] : StructsAt) {
    std::string Struct = argumentStruct(recordView(A, Child), UniformOf[Child]);
    // Before the copies that go to the same place (insertions keep order).
    if (auto Header = A.InHeader.find(Child); Header != A.InHeader.end())
      Edits.insert(Header->second.Offset,
                   Header->second.NamespacesOpen + Struct + Header->second.NamespacesClose);
    else if (auto Early = InNamespace.find(Child);
             Early != InNamespace.end() && Early->second->Offset <= At)
      Edits.insert(Early->second->Offset,
                   Early->second->NamespacesOpen + Struct + Early->second->NamespacesClose);
    else
      Edits.insert(At, Struct);
  }
}

// Top-level parents: the host prepares and resets the record pool before
// each launch, when every earlier grid of the stream and its children have
// finished. A kernel that only reaches parents through device launches has
// no demand of its own: the pool learns what its launches take.
void resetPoolBeforeTopLevelLaunches(
    clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
    const std::map<const clang::FunctionDecl *, std::vector<AggregatedSite>> &SitesOf,
    const std::map<std::string, ParentPoolDemand> &DemandOf, SourceEdits &Edits) {
  std::set<std::string> Reaching;
  for (const auto &[Parent, Sites] : SitesOf)
    Reaching.insert(Parent->getNameAsString());
  addDeviceLaunchers(Launches, Reaching);
  for (const LaunchSite &S : Launches.Sites) {
    if (S.DeviceSide || !Reaching.count(S.ChildName))
      continue;
    llvm::Expected<LaunchText> Text = readLaunchText(Ctx, S);
    if (!Text) {
      llvm::consumeError(Text.takeError());
      continue;
    }
    const LaunchText &L = *Text;
    Edits.replace(L.Statement.Begin, L.Statement.End - L.Statement.Begin,
                  hostLaunchWithPool(L, resetPoolCall(DemandOf, S.ChildName)));
  }
}

// The kernels that tail-launch children themselves. A tail launch in a device
// function counts for every kernel: which kernels reach it is not followed.
std::set<const clang::FunctionDecl *> tailLaunchingKernels(const LaunchAnalysis &Launches,
                                                           bool &FromDeviceFunction) {
  std::set<const clang::FunctionDecl *> Kernels;
  FromDeviceFunction = false;
  for (const LaunchSite &Site : Launches.Sites) {
    if (!Site.DeviceSide || Site.StreamKind != LaunchStream::TailLaunch)
      continue;
    if (Site.Parent->hasAttr<clang::CUDAGlobalAttr>())
      Kernels.insert(Site.Parent);
    else
      FromDeviceFunction = true;
  }
  return Kernels;
}

// --aggregate=host: the serial copies a launch that finds no room runs.
SerialCopyOptions hostSerialCopying() {
  SerialCopyOptions Options;
  Options.Names = {generated::aggregate::HostSerialPrefix, generated::aggregate::HostThreadPrefix};
  return Options;
}

// --aggregate=host, after the kernels are written: each parent's arming
// kernel and host launcher after it and its children, and its host launches
// rewritten.
void launchFromHost(
    clang::ASTContext &Ctx, const LaunchAnalysis &Launches, const AcceptedSites &Accepted,
    const std::map<const clang::FunctionDecl *, std::vector<AggregatedSite>> &SitesOf,
    const std::map<std::string, ParentPoolDemand> &DemandOf, const AggregateOptions &Options,
    PassResult &Result) {
  std::set<const clang::FunctionDecl *> Parents;
  for (const auto &[Parent, Sites] : SitesOf) {
    if (Sites.empty())
      continue;
    Parents.insert(Parent);
    const KernelCopy &P = Accepted.Kernels.at(Parent);
    unsigned End = P.Whole.End;
    for (const AcceptedSite &A : Accepted.Sites)
      if (A.Site->Parent == Parent)
        End = std::max(End, Accepted.Kernels.at(A.Site->Child).Whole.End);
    Result.Edits.insert(End, (Options.HostWhenLarge ? hostedParentKernel(P, Sites, Options) : "") +
                                 hostLaunchFunctions(P, Sites));
  }
  rewriteHostLaunches(Ctx, Launches, Parents, DemandOf, Options.HostWhenLarge, Result.Edits);
}

// --aggregate=host, before the kernels are written: whether the output still
// needs the device runtime (a note); when not, the device-side error queries
// become cudaSuccess, in the copies (SiteEdits) and the text.
void noteDeviceRuntime(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                       const AcceptedSites &Accepted, SourceEdits &SiteEdits, PassResult &Result) {
  std::vector<FileRange> ParentBodies;
  for (const AcceptedSite &A : Accepted.Sites)
    ParentBodies.push_back(Accepted.Kernels.at(A.Site->Parent).Body);
  std::vector<std::string> Left;
  for (const LaunchSite &Site : Launches.Sites)
    if (Site.DeviceSide && std::none_of(Accepted.Sites.begin(), Accepted.Sites.end(),
                                        [&](const AcceptedSite &A) { return A.Site == &Site; }))
      Left.push_back("'" + Site.ChildName + "' at line " + std::to_string(Site.Position.Line) +
                     " (not aggregated)");
  for (const AcceptedSite &A : Accepted.Sites)
    if (A.Code.SerialFallback.empty())
      Left.push_back("'" + A.Site->ChildName + "' at line " +
                     std::to_string(A.Site->Position.Line) + " (when the pool is full)");
  for (const UnresolvedLaunch &U : Launches.Unresolved)
    Left.push_back("line " + std::to_string(U.Position.Line) + " (not resolved)");
  DeviceRuntimeUse Use = deviceRuntimeUse(Ctx);
  if (Accepted.Sites.front().Code.HostWhenLarge) {
    // The host-aggregated copies launch nothing: their error queries can
    // only return cudaSuccess, and are made only by the parents as written.
    if (Left.empty() && Use.OtherCalls.empty()) {
      llvm::StringRef Text =
          Ctx.getSourceManager().getBufferData(Ctx.getSourceManager().getMainFileID());
      for (const SourceEdit &E : Use.ErrorQueries) {
        FileRange At{E.Offset, E.Offset + E.Length};
        if (std::any_of(ParentBodies.begin(), ParentBodies.end(),
                        [&](const FileRange &B) { return B.File == At.File && B.contains(At); }))
          SiteEdits.replace(E.Offset, E.Length,
                            "(" + generated::aggregate::HostedFlag + " ? " + E.Text + " : " +
                                Text.substr(E.Offset, E.Length).str() + ")");
      }
    }
    for (const AcceptedSite &A : Accepted.Sites)
      if (!A.Code.SerialFallback.empty())
        Left.push_back("'" + A.Site->ChildName + "' at line " +
                       std::to_string(A.Site->Position.Line) +
                       " (parent grids the host does not aggregate)");
  }
  LaunchRemark Note = remarkFor(*Accepted.Sites.front().Site, "aggregate");
  Note.Subject = "device-side launches";
  Note.Note = true;
  if (!Left.empty())
    Note.Message = "device-side launches are left, of " + llvm::join(Left, ", ") +
                   ": build with -rdc=true -lcudadevrt";
  else if (!Use.OtherCalls.empty())
    Note.Message = "no device-side launch left, but device code still calls the device runtime (" +
                   llvm::join(Use.OtherCalls, ", ") + "): build with -rdc=true -lcudadevrt";
  else {
    // Bodies the pass replaces reach the output through their copies only.
    for (const SourceEdit &E : Use.ErrorQueries) {
      SiteEdits.replace(E.Offset, E.Length, E.Text);
      FileRange At{E.Offset, E.Offset + E.Length};
      if (std::none_of(ParentBodies.begin(), ParentBodies.end(),
                       [&](const FileRange &B) { return B.contains(At); }))
        Result.Edits.replace(E.Offset, E.Length, E.Text);
    }
    Note.Message = "no device-side launch left: the output builds as plain CUDA, without "
                   "-rdc=true and -lcudadevrt";
    if (!Use.ErrorQueries.empty())
      Note.Message += " (device-side cudaGetLastError/cudaPeekAtLastError, which can only "
                      "return cudaSuccess now, became cudaSuccess)";
  }
  Result.Remarks.push_back(Note);
}

// Whether the generated code launches or defers through launchopt/deferral.cuh:
// an output whose every launch went to the host (--aggregate=host) has no
// device launch left and must build without -rdc, so it leaves the header out.
bool usesDeferral(const SourceEdits &Edits) {
  return std::any_of(Edits.edits().begin(), Edits.edits().end(), [](const SourceEdit &E) {
    return E.Text.find("launchopt::deferral::") != std::string::npos;
  });
}

std::string runtimePreamble(const AggregateOptions &Options, bool Allocations, bool Packed,
                            bool Deferral) {
  return "// launchopt: launches from device code are aggregated; scopes with fewer\n"
         "// than LAUNCHOPT_AGG_THRESHOLD launches launch them one by one.\n" +
         std::string(Deferral ? "#include <launchopt/deferral.cuh>\n" : "") +
         "#include <launchopt/aggregation.cuh>\n" +
         std::string(Packed ? "#include <launchopt/thread_aggregation.cuh>\n" : "") +
         std::string(Options.HostLaunch ? "#include <launchopt/host_aggregation.cuh>\n" : "") +
         std::string(Allocations ? "#include <launchopt/allocation.cuh>\n" : "") +
         "#ifndef LAUNCHOPT_AGG_THRESHOLD\n#define LAUNCHOPT_AGG_THRESHOLD " +
         std::to_string(Options.DefaultThreshold) +
         "\n#endif\n#ifndef LAUNCHOPT_MAX_GROUPS\n"
         "#define LAUNCHOPT_MAX_GROUPS 65536\n#endif\n\n";
}

// The children of this file that other files launch
// (acceptChildOfOtherFiles took them), in the order of their definitions:
// their copies go into this file's output, launched here or not.
std::vector<const clang::FunctionDecl *> readExportedChildren(clang::ASTContext &Ctx,
                                                              const LaunchAnalysis &Launches,
                                                              ShadowCallees &Shadows,
                                                              AcceptedSites &A) {
  std::vector<const clang::FunctionDecl *> Exported;
  for (const clang::FunctionDecl *Child : Launches.ExportedChildren) {
    // acceptChildOfOtherFiles read the same, so none of these fails.
    llvm::Expected<KernelCopy> Copy = readKernel(Ctx, *Child);
    if (!Copy) {
      llvm::consumeError(Copy.takeError());
      continue;
    }
    llvm::Expected<KernelCopy> Declared = readKernelDeclaration(Ctx, *Child);
    if (!Declared) {
      llvm::consumeError(Declared.takeError());
      continue;
    }
    if (llvm::Error Unshadowable = Shadows.require(*Child)) {
      llvm::consumeError(std::move(Unshadowable));
      continue;
    }
    KernelCopy View = *Copy;
    View.ParamTexts = Declared->ParamTexts;
    View.ParamNames = Declared->ParamNames;
    A.RecordViews.emplace(Child, std::move(View));
    A.Kernels.emplace(Child, std::move(*Copy));
    Exported.push_back(Child);
  }
  std::sort(Exported.begin(), Exported.end(),
            [&](const clang::FunctionDecl *L, const clang::FunctionDecl *R) {
              return A.Kernels.at(L).Whole.Begin < A.Kernels.at(R).Whole.Begin;
            });
  return Exported;
}

// The device functions with a launch the decisions take.
std::set<const clang::FunctionDecl *> functionsWithTakenSites(const LaunchAnalysis &Launches,
                                                              const SiteDecisions &Decisions,
                                                              const DeviceFunctionScopes &Scopes) {
  std::set<const clang::FunctionDecl *> Taken;
  for (size_t I = 0; I < Launches.Sites.size(); ++I)
    if (Decisions.Refusals[I].empty() && Scopes.KernelsOf.count(Launches.Sites[I].Id))
      Taken.insert(definitionOrSelf(Launches.Sites[I].Parent));
  return Taken;
}

// The sites' decisions, with the device functions whose launches are all
// refused left uncopied: the shadow copies are planned again without them,
// and their sites keep the first reasons.
SiteDecisions decideWithDeviceFunctions(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                        const AggregateOptions &Options,
                                        std::unique_ptr<ShadowCallees> &Shadows,
                                        DeviceFunctionScopes &Scopes) {
  Shadows = std::make_unique<ShadowCallees>(Ctx);
  Scopes = findDeviceFunctionScopes(Ctx, Launches, Options, *Shadows, nullptr);
  SiteDecisions Decisions = decideSites(Ctx, Launches, Options, *Shadows, Scopes);
  std::set<const clang::FunctionDecl *> Taken =
      functionsWithTakenSites(Launches, Decisions, Scopes);
  if (Taken == Scopes.Functions)
    return Decisions;
  std::vector<std::string> First = Decisions.Refusals;
  std::map<unsigned, std::string> FirstScopeRefusals = Scopes.Refusals;
  Shadows = std::make_unique<ShadowCallees>(Ctx);
  Scopes = findDeviceFunctionScopes(Ctx, Launches, Options, *Shadows, &Taken);
  Decisions = decideSites(Ctx, Launches, Options, *Shadows, Scopes);
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    if (!Site.DeviceSide || isKernel(*Site.Parent) || Scopes.KernelsOf.count(Site.Id))
      continue;
    if (!First[I].empty())
      Decisions.Refusals[I] = First[I];
    if (auto Why = FirstScopeRefusals.find(Site.Id); Why != FirstScopeRefusals.end())
      Scopes.Refusals[Site.Id] = Why->second;
  }
  return Decisions;
}

} // namespace

PassResult AggregatePass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  std::unique_ptr<ShadowCallees> ShadowPlan;
  DeviceFunctionScopes Scopes;
  SiteDecisions Decisions = decideWithDeviceFunctions(Ctx, Launches, Options, ShadowPlan, Scopes);
  ShadowCallees &Shadows = *ShadowPlan;
  AcceptedSites Accepted = acceptSites(Ctx, Launches, Decisions, Scopes, Options, Result.Remarks);
  std::vector<const clang::FunctionDecl *> Exported =
      readExportedChildren(Ctx, Launches, Shadows, Accepted);
  if (Accepted.Sites.empty() && Exported.empty())
    return Result;
  std::map<const clang::FunctionDecl *, UniformParameters> UniformOf =
      uniformArgumentsOfChildren(Ctx, Launches, Accepted, Options.Granularity, Result.Remarks);
  const std::map<const clang::FunctionDecl *, KernelCopy> &Kernels = Accepted.Kernels;

  // Site rewrites go into the part functions' text, not into the file: the
  // parents' bodies are replaced as a whole.
  SourceEdits SiteEdits;
  std::map<const clang::FunctionDecl *, std::vector<AggregatedSite>> SitesOf;
  std::set<const clang::FunctionDecl *> Children;
  bool TailLaunchInCallee = false;
  std::set<const clang::FunctionDecl *> TailLaunching =
      tailLaunchingKernels(Launches, TailLaunchInCallee);
  std::set<const clang::FunctionDecl *> SerialFallbackChildren;
  // Kernels whose copies call copies of device functions that launch.
  std::set<const clang::FunctionDecl *> GatheringKernels;
  std::set<std::pair<const clang::FunctionDecl *, unsigned>> DeclaredInNamespace;
  if (!Scopes.empty())
    Shadows.passAlso(Scopes.parameters(), Scopes.arguments(),
                     static_cast<unsigned>(Scopes.scopeVariables().size()));
  for (const AcceptedSite &A : Accepted.Sites) {
    bool ParentTailLaunches =
        TailLaunchInCallee ||
        std::any_of(A.ScopeKernels.begin(), A.ScopeKernels.end(),
                    [&](const clang::FunctionDecl *K) { return TailLaunching.count(K) > 0; });
    if (!A.Code.SerialFallback.empty())
      SerialFallbackChildren.insert(A.Child);
    SiteEdits.replace(A.Text.Statement.Begin, A.Text.Statement.End - A.Text.Statement.Begin,
                      siteReplacement(A, UniformOf[A.Child], !ParentTailLaunches));
    AggregatedSite Code = A.Code;
    Code.UniformArguments = anyUniform(UniformOf[A.Child]);
    Code.ParentTailLaunches = ParentTailLaunches;
    for (const clang::FunctionDecl *K : A.ScopeKernels) {
      if (A.FunctionStart) {
        GatheringKernels.insert(K);
        if (!Code.GroupArray.empty())
          Code.GroupArray = generated::aggregate::GroupArrayPrefix + K->getNameAsString() + "_" +
                            std::to_string(A.Site->Id);
      }
      SitesOf[K].push_back(Code);
    }
    if (A.DeclarationsInNamespace && Kernels.count(A.Child) &&
        DeclaredInNamespace.insert({A.Child, A.DeclarationsInNamespace->Offset}).second) {
      const IncludedPlacement &At = *A.DeclarationsInNamespace;
      const KernelCopy &ChildCopy = Kernels.at(A.Child);
      std::string Declarations =
          launcherPrototype(ChildCopy, Launches.ExportedChildren.count(A.Child));
      if (Accepted.NeedDirectCopy.count(Code.ChildName))
        Declarations += directKernelPrototype(ChildCopy);
      Result.Edits.insert(At.Offset, At.NamespacesOpen + Declarations + At.NamespacesClose);
    }
    if (A.FunctionStart && !Code.DirectChild.empty() && Code.ChildScope.empty() &&
        Kernels.count(A.Child))
      Result.Edits.insert(*A.FunctionStart, directKernelPrototype(Kernels.at(A.Child)));
    if (!Accepted.ExternalKernels.count(A.Child))
      Children.insert(A.Child);
  }
  Children.insert(Exported.begin(), Exported.end());
  // Functions the children's part functions call that read the built-ins
  // get their own copies, and so do the device functions whose launches
  // the gathering kernels' part functions reach.
  std::set<const clang::FunctionDecl *> Copied = Children;
  Copied.insert(GatheringKernels.begin(), GatheringKernels.end());
  Shadows.emit(Result.Edits, SiteEdits.edits(), Copied);

  // The parents' own allocations join the aggregation; edits inside a body
  // the pass replaces reach the output through its part function only.
  std::vector<FileRange> ReplacedBodies, LaunchStatements;
  for (const auto &[Decl, K] : Kernels)
    if (SitesOf.count(Decl))
      ReplacedBodies.push_back(K.Body);
  for (const AcceptedSite &A : Accepted.Sites)
    LaunchStatements.push_back(A.Text.Statement);
  AllocationRewrites Allocations =
      aggregateAllocations(Ctx, ReplacedBodies, LaunchStatements, Options.Granularity);
  for (const SourceEdit &E : Allocations.Edits) {
    SiteEdits.replace(E.Offset, E.Length, E.Text);
    FileRange At{E.Offset, E.Offset + E.Length};
    if (std::none_of(ReplacedBodies.begin(), ReplacedBodies.end(),
                     [&](const FileRange &B) { return B.contains(At); }))
      Result.Edits.replace(E.Offset, E.Length, E.Text);
  }
  Result.Remarks.insert(Result.Remarks.end(), Allocations.Remarks.begin(),
                        Allocations.Remarks.end());
  // A file that only holds the copies of children other files launch
  // configures no launch.
  if (!Accepted.Sites.empty()) {
    std::vector<LaunchRemark> Notes = pendingLaunchLimitNotes(Ctx);
    Result.Remarks.insert(Result.Remarks.end(), Notes.begin(), Notes.end());
  }

  if (Options.HostLaunch)
    noteDeviceRuntime(Ctx, Launches, Accepted, SiteEdits, Result);
  insertArgumentStructs(Accepted, UniformOf, Exported, Result.Edits);
  for (const auto &[Decl, K] : Kernels) {
    const std::vector<AggregatedSite> &Own = SitesOf[Decl];
    auto Header = Accepted.InHeader.find(Decl);
    // A header's body takes none of the main file's edits (other offsets);
    // its calls need none (SiteAcceptance).
    std::vector<SourceEdit> BodyEdits =
        Header == Accepted.InHeader.end() ? SiteEdits.edits() : std::vector<SourceEdit>{};
    // Shadow copies take the scopes of device functions' launches too.
    std::vector<std::string> CalleeScopes;
    if (Children.count(Decl) || GatheringKernels.count(Decl)) {
      std::vector<SourceEdit> Calls = Shadows.callEdits(*Decl);
      BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
      if (!Calls.empty())
        CalleeScopes = Scopes.scopeVariables();
    }
    std::string Before, After;
    Before += groupArrays(Own);
    // The part function launches a child's direct copy when it cannot record
    // the launch; the wrapper calls the child's launcher.
    std::set<std::string> Declared;
    for (const AggregatedSite &S : Own) {
      // A child of another namespace has its launcher and direct copy
      // beside it, defined before the parent or declared in its namespace
      // before the parent's top-level declaration (below).
      if (!S.ChildScope.empty())
        continue;
      for (const auto &[ChildDecl, ChildCopy] : Accepted.ExternalKernels)
        if (ChildCopy.Name == S.ChildName && Declared.insert(S.ChildName).second)
          Before += launcherPrototype(ChildCopy, true);
      for (const auto &[ChildDecl, ChildCopy] : Kernels)
        if (ChildCopy.Name == S.ChildName && Declared.insert(S.ChildName).second) {
          if (S.HostScope.empty() || S.HostWhenLarge)
            Before += launcherPrototype(ChildCopy, Launches.ExportedChildren.count(ChildDecl));
          if (!S.HostScope.empty() && !S.SerialFallback.empty() &&
              ChildCopy.Whole.Begin > K.Whole.Begin)
            Before += serialPrototype(ChildCopy, hostSerialCopying()) + "\n";
          if (Accepted.NeedDirectCopy.count(S.ChildName))
            Before += directKernelPrototype(ChildCopy);
        }
    }
    // A recursive kernel's part function launches the kernel itself, when it
    // cannot record the launch or when that launch is left as written: it is
    // defined after the kernel, declared before.
    bool Recursive =
        std::any_of(Own.begin(), Own.end(),
                    [&](const AggregatedSite &S) { return S.ChildName == K.Name; }) ||
        std::any_of(Launches.Sites.begin(), Launches.Sites.end(), [&](const LaunchSite &S) {
          return S.DeviceSide && S.ParentName == K.Name && S.ChildName == K.Name;
        });
    if (Recursive) {
      Before += partPrototype(K, Own);
      After += "\n\n" + partFunction(Ctx, K, BodyEdits, Own, CalleeScopes);
    } else {
      Before += partFunction(Ctx, K, BodyEdits, Own, CalleeScopes);
    }
    if (Header == Accepted.InHeader.end())
      Result.Edits.insert(K.Whole.Begin, Before);
    if (!Own.empty()) {
      // The wrapper passes every parameter on, so each needs a name.
      nameUnnamedParameters(K, Result.Edits);
      Result.Edits.replace(K.Body.Begin, K.Body.End - K.Body.Begin, parentWrapper(K, Own, Options));
    }
    bool Direct = Accepted.NeedDirectCopy.count(K.Name) > 0;
    if (Direct)
      After += directKernel(K, Own);
    if (Children.count(Decl) && Options.HostLaunch) {
      if (SerialFallbackChildren.count(Decl))
        After += serialDefinitions(Ctx, K, BodyEdits, hostSerialCopying());
      After += hostAggregatedKernel(K, UniformOf[Decl], Accepted.Packed.count(Decl) > 0,
                                    Options.HostWhenLarge);
    }
    // The device launches aggregated grids, under --aggregate=host-or-device
    // those of the smaller parent grids.
    if (Children.count(Decl) && (!Options.HostLaunch || Options.HostWhenLarge)) {
      bool InOrder =
          std::any_of(Accepted.Sites.begin(), Accepted.Sites.end(),
                      [&](const AcceptedSite &A) { return A.Child == Decl && A.Code.Ordered; });
      After += aggregatedKernelAndLauncher(
          recordView(Accepted, Decl), Own,
          Options.HostWhenLarge ? deviceSideOptions(Options) : Options, UniformOf[Decl],
          Direct ? directKernelName(K.Name) : K.Name, Accepted.Packed.count(Decl) > 0,
          Launches.ExportedChildren.count(Decl) > 0, InOrder);
    }
    if (Header != Accepted.InHeader.end()) {
      const IncludedPlacement &At = Header->second;
      Result.Edits.insert(At.Offset, "\n// launchopt: aggregation copies of '" + K.Name +
                                         "', defined in the header above.\n" + At.NamespacesOpen +
                                         Before + After + "\n" + At.NamespacesClose);
    } else if (!After.empty()) {
      Result.Edits.insert(K.Whole.End, After);
    }
  }

  std::map<std::string, ParentPoolDemand> DemandOf =
      poolDemandOfParents(Ctx, Accepted.Sites, UniformOf);
  markOwnSitesOnly(Launches, DemandOf);
  if (Options.HostLaunch)
    launchFromHost(Ctx, Launches, Accepted, SitesOf, DemandOf, Options, Result);
  else
    resetPoolBeforeTopLevelLaunches(Ctx, Launches, SitesOf, DemandOf, Result.Edits);
  Result.Edits.insert(0, runtimePreamble(Options, !Allocations.Edits.empty(),
                                         !Accepted.Packed.empty(), usesDeferral(Result.Edits)));
  includeSerialRuntime(Result.Edits);
  return Result;
}

// The defining file's output holds the child's argument structs, part
// function, aggregated kernel and launcher; the launching files declare the
// structs alike and the launcher (external linkage, -rdc).
llvm::Error AggregatePass::acceptChildOfOtherFiles(clang::ASTContext &Ctx,
                                                   const LaunchAnalysis &Launches,
                                                   const clang::FunctionDecl &Child) const {
  if (llvm::Error E = exportableChild(Child))
    return E;
  if (Options.HostLaunch)
    return refusal(hostModeFlag(Options) +
                   " takes children defined in the launching file: the host code after the "
                   "parent launches their aggregated grids");
  if (llvm::StringRef(Child.getName()).starts_with(generated::aggregate::AggregatedPrefix))
    return refusal("the child is already aggregated");
  // A grid of the child launched as written from another file (its launch
  // not recorded) would share the file-scope group scopes of its own
  // launches with the other grids of it; that file cannot launch a copy
  // without them, which it does not know of.
  if (usesGroupScopes(Options.Granularity))
    for (const LaunchSite &Site : Launches.Sites)
      if (Site.DeviceSide && Site.Parent->getCanonicalDecl() == Child.getCanonicalDecl())
        return refusal("the child launches kernels itself, and its grids launched from another "
                       "file would share its group scopes (use warp or block granularity)");
  ShadowCallees Shadows(Ctx);
  if (llvm::Error Unshadowable = Shadows.require(Child))
    return Unshadowable;
  if (llvm::Error Unreadable = readKernel(Ctx, Child).takeError())
    return Unreadable;
  return readKernelDeclaration(Ctx, Child).takeError();
}

} // namespace launchopt

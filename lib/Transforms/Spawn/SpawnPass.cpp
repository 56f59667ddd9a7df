#include "SpawnPass.h"

#include "SpawnedKernel.h"
#include "Analysis/ChildIndependence.h"
#include "Analysis/LaunchOrder.h"
#include "Analysis/ThreadLoops.h"
#include "Support/GeneratedNames.h"
#include "Transforms/Common/LaunchAcceptance.h"
#include "Transforms/Common/LaunchBinding.h"
#include "Transforms/Common/OrderGuard.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include "Transforms/Common/ShadowCallees.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <optional>
#include <set>

namespace launchopt {

namespace {

// The replacement of the launch statement: the controller's ticket, the
// spawned launch, and the serial copy when the controller said no or the
// pool refused the launch.
// Guarded: the controller may serialize it only while the thread's order
// flag is clear; SetsFlag: a launch made sets it (OrderGuard.h).
std::string controlledLaunch(clang::ASTContext &Ctx, const LaunchSite &Site, const LaunchText &L,
                             LaunchRemark &Remark, const std::string &SerialCallee,
                             const std::string &SpawnedCallee, bool InCycle, bool Guarded,
                             bool SetsFlag, bool Leaf) {
  BoundLaunch B = bindLaunch(Ctx, Site, L, "s");
  std::string Id = std::to_string(Site.Id) + "u";
  std::string TicketVar = generated::code("@sticket") + std::to_string(Site.Id);
  // Launches the serial copy cannot replace: a grid wider than the count
  // (the copy would run all of it), a serial recursion at its bound.
  std::vector<std::string> Forced;
  if (!B.FitsVar.empty())
    Forced.push_back("!" + B.FitsVar);
  if (InCycle)
    Forced.push_back(generated::threshold::SerialDepth + " >= LAUNCHOPT_SERIAL_DEPTH");
  if (Guarded)
    Forced.push_back(orderFlag());
  std::string ForcedText = Forced.empty() ? "false" : llvm::join(Forced, " || ");
  const std::string &Indent = L.Indent;
  std::string Out = "{ // launchopt: spawn-controlled launch of '" + Site.ChildName + "'\n";
  Out += boundDeclarations(B, Indent);
  // A small child whose threads run no loop is serialized at once (admit).
  bool LoopFree = Site.Child && !threadsMayLoop(*Site.Child);
  Out += Indent + "  const unsigned " + TicketVar + " = launchopt::spawn::admit(" + Id + ", " +
         B.GridVar + ", " + B.BlockVar + ", " + B.ThreadsVar + ",\n" + Indent + "      " +
         ForcedText +
         (LoopFree ? ", true"
          : Leaf   ? ", false, true"
                   : "") +
         ");\n";
  Out += Indent + "  if (" + TicketVar + " != 0)\n";
  Out += Indent + "    " + SpawnedCallee + "<<<" + B.GridVar + ", " + B.BlockVar +
         L.trailingConfig() + ">>>(" + L.argumentsThen() + TicketVar + ");\n";
  Out += Indent + "  if (" + TicketVar + " == 0 ||\n" + Indent +
         "      !launchopt::spawn::launched(" + Id + ", " + TicketVar + ", " + B.GridVar + ", " +
         B.ThreadsVar + "))\n";
  Out += Indent + "    " + SerialCallee + "(" + L.argumentsThen() + B.GridVar + ", " + B.BlockVar +
         (InCycle ? ", " + generated::threshold::SerialDepth + " + 1" : "") + ");\n";
  if (SetsFlag)
    Out += Indent + "  else\n" + Indent + "    " + orderFlag() + " = true;\n";
  Out += Indent + "}";
  Remark.Parameters["threads"] = B.Recovered;
  if (LoopFree)
    Remark.Parameters["serial-without-controller"] =
        "at most LAUNCHOPT_SPAWN_SERIAL_THREADS threads (its threads run no loop)";
  return Out;
}

// The replacement of a launch whose child cannot run in the parent thread:
// launched while the controller's limits allow, else (or when the pool
// refuses it) recorded, with its arguments as evaluated here, for the
// runtime's drains to launch (runtime/include/launchopt/deferral.cuh).
std::string deferrableLaunch(clang::ASTContext &Ctx, const LaunchSite &Site, const LaunchText &L,
                             LaunchRemark &Remark, const std::string &SpawnedCallee, bool Leaf) {
  BoundLaunch B = bindLaunch(Ctx, Site, L, "s");
  std::string Id = std::to_string(Site.Id) + "u";
  std::string Suffix = std::to_string(Site.Id);
  std::string TicketVar = generated::code("@sticket") + Suffix;
  const std::string &Indent = L.Indent;
  std::string Out = "{ // launchopt: spawn-controlled launch of '" + Site.ChildName +
                    "', deferred when refused\n";
  Out += boundDeclarations(B, Indent);
  std::string SharedMemory = "0";
  if (!L.SharedMemory.empty()) {
    SharedMemory = generated::code("@sshared") + Suffix;
    Out += Indent + "  const size_t " + SharedMemory + " = " + L.SharedMemory + ";\n";
  }
  std::vector<std::string> Arguments;
  for (size_t I = 0; I < L.ArgumentTexts.size(); ++I) {
    Arguments.push_back(generated::code("@sarg") + Suffix + "_" + std::to_string(I));
    Out += Indent + "  auto " + Arguments.back() + " = " + L.ArgumentTexts[I] + ";\n";
  }
  std::string ArgumentsThen = Arguments.empty() ? "" : llvm::join(Arguments, ", ") + ", ";
  std::string Stream = L.Stream.empty() ? "0" : L.Stream;
  const std::string LeafText = Leaf ? "true" : "false";
  Out += Indent + "  const unsigned " + TicketVar + " = launchopt::spawn::admitBlockChild(" + Id +
         ", " + B.GridVar + ", " + B.BlockVar + ", " + B.ThreadsVar + ", " + LeafText + ");\n";
  Out += Indent + "  if (" + TicketVar + " != 0)\n";
  Out += Indent + "    " + SpawnedCallee + "<<<" + B.GridVar + ", " + B.BlockVar + ", " +
         SharedMemory + ", " + Stream + ">>>(" + ArgumentsThen + TicketVar + ");\n";
  Out += Indent + "  if (" + TicketVar + " == 0 ||\n" + Indent +
         "      !launchopt::spawn::blockChildLaunched(" + Id + ", " + TicketVar + ", " + B.GridVar +
         "))\n";
  Out += Indent + "    launchopt::spawn::deferBlockChild(\n" + Indent + "        " + Id + ", " +
         B.GridVar + ", " + B.BlockVar + ", " + B.ThreadsVar + ", " + LeafText + ",\n" + Indent +
         "        [=](" + generated::code("unsigned @t, cudaStream_t @stream) {\n") + Indent +
         "          " + SpawnedCallee + "<<<" + B.GridVar + ", " + B.BlockVar + ", " +
         SharedMemory + generated::code(", @stream>>>(") + ArgumentsThen +
         generated::code("@t);\n") + Indent + "        });\n";
  Out += Indent + "}";
  Remark.Parameters["threads"] = B.Recovered;
  return Out;
}

// Why a child that cannot run in the parent thread cannot be deferred
// either; success when it can.
llvm::Error deferralBlocker(const LaunchAnalysis &Launches, const LaunchSite &Site,
                            const SpawnOptions &Options) {
  for (const LaunchSite &Other : Launches.Sites) {
    if (!Other.DeviceSide)
      continue;
    // The drains are tail launches: tail launches run in the order they
    // were made, so one of the program's own could run before the deferred
    // child.
    if (Other.StreamKind == LaunchStream::TailLaunch)
      return refusal("device code of this file tail-launches kernels, which could run before "
                     "the deferred child");
    // A deferred child may run after the parent's later launches too.
    if (&Other != &Site && Other.Parent == Site.Parent &&
        Other.StreamKind != LaunchStream::FireAndForget && !Options.AssumeIndependentChildren &&
        !proveIndependentOfEarlierLaunches(Launches, Other).Proved)
      return refusal("the parent launches other children into an ordered stream, which could "
                     "run before the deferred child");
  }
  return llvm::Error::success();
}

// Why a launch cannot be controlled whatever its text; success when the
// serial copy can stand in for it, or (Deferrable) the child, which cannot
// run in the parent thread, can be deferred.
// A child of another file (External) was checked there
// (acceptChildOfOtherFiles).
llvm::Error refusalOf(const LaunchAnalysis &Launches, const LaunchSite &Site,
                      const SpawnOptions &Options, ShadowCallees &Shadows, bool &Deferrable,
                      const ExternalChild *External) {
  Deferrable = false;
  if (!Site.DeviceSide)
    return refusal("host-side launch: the spawn controller decides launches from device code");
  if (Site.Parent->hasAttr<clang::CUDAHostAttr>())
    return refusal("the parent is a __host__ __device__ function; the serial copy is device-only");
  if (!Site.Child && !External)
    return refusal(Site.UnresolvedReason);
  if (llvm::StringRef(Site.ChildName).contains(generated::Prefix))
    return refusal("the child is a copy an earlier pass generated");
  // A child that needs its block together (barriers, shared memory) cannot
  // run in the parent thread: a refused launch of it is deferred instead.
  if (External) {
    // Checked where the child is defined.
  } else if (llvm::Error Blocker = serialCopyBlocker(Launches.ChildFeatures.at(Site.Child))) {
    if (llvm::Error Why = deferralBlocker(Launches, Site, Options))
      return refusal(llvm::toString(std::move(Blocker)) +
                     "; not deferred either: " + llvm::toString(std::move(Why)));
    llvm::consumeError(std::move(Blocker));
    Deferrable = true;
  } else if (llvm::Error Unshadowable = Shadows.require(*Site.Child)) {
    return Unshadowable;
  }
  if (!External)
    if (llvm::Error InHeader =
            headerCopyBlocker(*Site.Child, Launches.ChildFeatures.at(Site.Child)))
      return InHeader;
  if (Site.StreamKind == LaunchStream::TailLaunch)
    return refusal("the child is tail-launched: it must run after the whole parent grid");
  // A child that runs in the parent thread keeps the stream's order under
  // the order guard (run); a deferred one could not tell.
  if (Deferrable && !Options.AssumeIndependentChildren &&
      mayReorderWithEarlierLaunch(Launches, Site))
    if (Independence Proof = proveIndependentOfEarlierLaunches(Launches, Site); !Proof.Proved)
      return refusal("the parent thread launches other children into the same stream before "
                     "this one (in a loop or earlier); a deferred child could run after later "
                     "ones (pass --assume-independent-children if they do not depend on each "
                     "other); not proved independent: " +
                     Proof.Text);
  return llvm::Error::success();
}

// After each child: its serial copy (from the body as this pass edited it,
// so that its own launches are controlled too) and its spawned kernel.
// A child that other files launch gets its copies with external linkage.
void insertCopies(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                  const std::map<const clang::FunctionDecl *, KernelCopy> &Controlled,
                  const std::set<const clang::FunctionDecl *> &Deferrable,
                  const std::map<const clang::FunctionDecl *, IncludedPlacement> &InHeader,
                  ShadowCallees &Shadows, PassResult &Result) {
  std::vector<SourceEdit> LaunchEdits = Result.Edits.edits();
  std::set<const clang::FunctionDecl *> Children;
  for (const auto &[Child, Copy] : Controlled)
    if (!Deferrable.count(Child))
      Children.insert(Child);
  Shadows.emit(Result.Edits, LaunchEdits, Children);
  for (const auto &[Child, Copy] : Controlled) {
    // A child of an included header is copied from the header's text, with
    // none of this file's edits, after the #include that brings it in.
    auto Header = InHeader.find(Child);
    auto Place = [&](const std::string &Text) {
      if (Header == InHeader.end()) {
        Result.Edits.insert(Copy.Whole.End, Text);
      } else {
        const IncludedPlacement &At = Header->second;
        Result.Edits.insert(At.Offset, At.NamespacesOpen + Text + "\n" + At.NamespacesClose);
      }
    };
    if (Deferrable.count(Child)) {
      Place(blockSpawnedDefinition(
          Ctx, Copy, Header == InHeader.end() ? LaunchEdits : std::vector<SourceEdit>{}));
      continue;
    }
    std::vector<SourceEdit> BodyEdits;
    if (Header == InHeader.end()) {
      BodyEdits = LaunchEdits;
      std::vector<SourceEdit> Calls = Shadows.callEdits(*Child);
      BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    }
    SerialCopyOptions Copying;
    Copying.InCycle = inLaunchCycle(Launches, Child);
    Copying.Names = spawnSerialNames();
    Copying.MayPool = false;
    Copying.Exported = Launches.ExportedChildren.count(Child);
    // The per-thread function of a child in a launch cycle launches the
    // spawned kernel, written after it.
    std::string Text = Copying.InCycle ? "\n\n" + spawnedPrototype(Copy, Copying.Exported) : "";
    Text += serialDefinitions(Ctx, Copy, BodyEdits, Copying);
    Text += spawnedDefinition(Copy, Copying.InCycle, Copying.Exported);
    Place(Text);
  }
}

// Whether the child launches nothing (a leaf: only the pool bounds its grids).
bool launchesNothing(const LaunchAnalysis &Launches, const LaunchSite &Site) {
  auto Features =
      Site.Child ? Launches.ChildFeatures.find(Site.Child) : Launches.ChildFeatures.end();
  return Features != Launches.ChildFeatures.end() && Features->second.LaunchedKernels.empty();
}

// Whether the text already defines the serial depth (thresholding ran first).
bool definesSerialDepth(clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  return SM.getBufferData(SM.getMainFileID())
      .contains("\nstatic constexpr unsigned " + generated::threshold::SerialDepth + " =");
}

// A launch as the first reading left it: taken (Launch) or refused (the
// remark's message).
struct Candidate {
  LaunchRemark Remark;
  const ExternalChild *External = nullptr;
  bool Defers = false; // the child cannot run in the parent thread
  std::optional<AcceptedLaunch> Launch;
  std::string Spawned; // the spawned kernel's name as the launch calls it
  Independence Proof;  // for a launch that may follow others into its stream
};

} // namespace

llvm::Error SpawnPass::acceptChildOfOtherFiles(clang::ASTContext &Ctx,
                                               const LaunchAnalysis &Launches,
                                               const clang::FunctionDecl &Child) const {
  if (llvm::Error E = exportableChild(Child))
    return E;
  if (llvm::Error Blocker = serialCopyBlocker(featuresOf(Launches, Child)))
    return refusal(llvm::toString(std::move(Blocker)) +
                   ": it cannot run in the parent thread, and a refused launch of a child "
                   "defined in another file is not deferred");
  if (inLaunchCycle(Launches, &Child))
    return refusal("the child launches itself (its serial copy is bounded by a depth that "
                   "other files cannot declare)");
  return copiesForOtherFilesBlocker(Ctx, Child);
}

PassResult SpawnPass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  std::map<const clang::FunctionDecl *, KernelCopy> Controlled;
  std::set<const clang::FunctionDecl *> Deferrable;
  std::set<std::pair<unsigned, const clang::FunctionDecl *>> Prototypes;
  std::vector<std::pair<unsigned, PresumedPosition>> CounterSites;
  ShadowCallees Shadows(Ctx);
  AcceptanceSteps Steps{generated::spawn::SerialPrefix};
  Steps.ChildInIncludedFile = true;
  std::map<const clang::FunctionDecl *, IncludedPlacement> InHeader;
  bool AnyInCycle = false;
  // A launch of a child of another file needs the runtime without copies here.
  bool RewroteExternalLaunch = false;

  // Every launch is read first: whether a launch that may follow others
  // into its stream can be guarded depends on which of them are taken.
  std::vector<Candidate> Candidates;
  std::set<unsigned> Taken, NeedGuard;
  for (unsigned I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    Candidate C{remarkFor(Site, "spawn"), acceptedExternalChild(Launches, Site)};
    llvm::Error Refusal = refusalOf(Launches, Site, Options, Shadows, C.Defers, C.External);
    llvm::Expected<AcceptedLaunch> Launch =
        C.External ? acceptExternalLaunch(Ctx, Site, *C.External, std::move(Refusal), Steps)
                   : acceptLaunch(Ctx, Site, std::move(Refusal), Steps);
    if (Launch && C.Defers && !Launch->Text.Arguments.empty() && Launch->Text.ArgumentTexts.empty())
      Launch = llvm::Expected<AcceptedLaunch>(
          refusal("an argument cannot be read alone, to be recorded for a deferred launch"));
    llvm::Expected<std::string> Spawned =
        Launch ? prefixedCallee(Ctx, Site, generated::spawn::SpawnedPrefix)
               : llvm::Expected<std::string>(Launch.takeError());
    if (!Spawned) {
      C.Remark.Message = llvm::toString(Spawned.takeError());
      Candidates.push_back(std::move(C));
      continue;
    }
    C.Launch = std::move(*Launch);
    C.Spawned = *Spawned;
    // A deferred child runs later, from a drain: it cannot set the flag
    // that says whether later children may run serially.
    if (!C.Defers)
      Taken.insert(I);
    if (!C.Defers && mayReorderWithEarlierLaunch(Launches, Site)) {
      C.Proof = proveIndependentOfEarlierLaunches(Launches, Site);
      if (!C.Proof.Proved && !Options.AssumeIndependentChildren)
        NeedGuard.insert(I);
    }
    Candidates.push_back(std::move(C));
  }
  OrderGuards Guards = planOrderGuards(Ctx, Launches, NeedGuard, Taken);
  for (const auto &[I, Why] : Guards.Refused) {
    Candidates[I].Launch.reset();
    Candidates[I].Remark.Message = orderGuardRefusal(Candidates[I].Proof, Why);
  }
  for (const auto &[Parent, Offset] : Guards.Declarations)
    Result.Edits.insert(Offset, orderFlagDeclaration());

  for (unsigned I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    Candidate &C = Candidates[I];
    LaunchRemark &Remark = C.Remark;
    const ExternalChild *External = C.External;
    if (!C.Launch) {
      Result.Remarks.push_back(Remark);
      continue;
    }
    AcceptedLaunch *Launch = &*C.Launch;
    const FileRange &Statement = Launch->Text.Statement;
    if (C.Defers) {
      // A child that launches nothing is bounded by the pool alone.
      Result.Edits.replace(Statement.Begin, Statement.End - Statement.Begin,
                           deferrableLaunch(Ctx, Site, Launch->Text, Remark, C.Spawned,
                                            launchesNothing(Launches, Site)));
      if (Launch->NeedsPrototype && Prototypes.insert({Launch->ParentStart, Site.Child}).second)
        insertPrototype(Result.Edits, *Launch, spawnedPrototype(Launch->Child) + "\n");
      Controlled.emplace(Site.Child, Launch->Child);
      Deferrable.insert(Site.Child);
      noteChildInHeader(*Launch, Site.Child, InHeader, Remark);
      CounterSites.push_back({Site.Id, Site.Position});
      Remark.Applied = true;
      Remark.Parameters["spawned-kernel"] = generated::spawn::SpawnedPrefix + Launch->Child.Name;
      Remark.Parameters["deferred-when-refused"] =
          llvm::toString(serialCopyBlocker(Launches.ChildFeatures.at(Site.Child)));
      Result.Remarks.push_back(Remark);
      continue;
    }
    bool InCycle = Site.Child && inLaunchCycle(Launches, Site.Child);
    AnyInCycle |= InCycle;
    bool Guarded = Guards.Guarded.count(I);
    Result.Edits.replace(Statement.Begin, Statement.End - Statement.Begin,
                         controlledLaunch(Ctx, Site, Launch->Text, Remark, Launch->Callee,
                                          C.Spawned, InCycle, Guarded, Guards.Setters.count(I),
                                          launchesNothing(Launches, Site)));
    const clang::FunctionDecl *Child = External ? External->Declaration : Site.Child;
    if (Launch->NeedsPrototype && Prototypes.insert({Launch->ParentStart, Child}).second) {
      SerialCopyOptions Copying;
      Copying.InCycle = InCycle;
      Copying.Names = spawnSerialNames();
      Copying.Exported = External || Launches.ExportedChildren.count(Child);
      insertPrototype(Result.Edits, *Launch,
                      serialPrototype(Launch->Child, Copying) +
                          spawnedPrototype(Launch->Child, Copying.Exported) + "\n");
    }
    RewroteExternalLaunch |= External != nullptr;
    if (External)
      Remark.Parameters["defined-in"] = External->DefiningFile;
    else {
      Controlled.emplace(Site.Child, Launch->Child);
      noteChildInHeader(*Launch, Site.Child, InHeader, Remark);
    }
    CounterSites.push_back({Site.Id, Site.Position});
    Remark.Applied = true;
    Remark.Parameters["serial-function"] = serialNameFor(Launch->Child.Name, spawnSerialNames());
    if (std::optional<std::string> Combined = serialAtomics(Launch->Child))
      Remark.Parameters["serial-atomics"] = *Combined;
    Remark.Parameters["spawned-kernel"] = generated::spawn::SpawnedPrefix + Launch->Child.Name;
    noteStreamOrder(Remark, C.Proof, Guarded, mayReorderWithEarlierLaunch(Launches, Site));
    Result.Remarks.push_back(Remark);
  }
  // Children that other files launch get their copies here, launched here
  // or not; acceptChildOfOtherFiles took them.
  addExportedChildren(Ctx, Launches, Shadows, Controlled);
  if (Controlled.empty() && !RewroteExternalLaunch)
    return Result;
  insertCopies(Ctx, Launches, Controlled, Deferrable, InHeader, Shadows, Result);
  Result.Edits.insert(
      0, "// launchopt: each device-side launch asks the spawn controller, which launches the\n"
         "// child or has the parent thread run it serially, or defers a child that cannot run\n"
         "// there (runtime: launchopt/deferral.cuh, launchopt/spawn.cuh).\n"
         "#include <launchopt/deferral.cuh>\n"
         "#include <launchopt/spawn.cuh>\n" +
             std::string(AnyInCycle && !definesSerialDepth(Ctx) ? serialDepthDefinitions() : "\n"));
  const clang::SourceManager &SM = Ctx.getSourceManager();
  if (!CounterSites.empty())
    Result.Edits.insert(SM.getBufferData(SM.getMainFileID()).size(), counterTable(CounterSites));
  includeSerialRuntime(Result.Edits);
  return Result;
}

} // namespace launchopt

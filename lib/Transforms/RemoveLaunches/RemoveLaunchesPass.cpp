#include "RemoveLaunchesPass.h"

#include "BlockRunCode.h"
#include "GridGuard.h"
#include "PersistentBlockChild.h"
#include "PersistentCode.h"
#include "RemovalChecks.h"
#include "Analysis/LaunchOrder.h"
#include "Analysis/LaunchPlacement.h"
#include "Analysis/ThreadLoops.h"
#include "Support/GeneratedNames.h"
#include "Transforms/Common/LaunchAcceptance.h"
#include "Transforms/Common/PlainBuild.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <deque>
#include <set>

namespace launchopt {

namespace {

const char *const PassName = "remove-launches";

const char *versionName(RemovalVersion V) {
  switch (V) {
  case RemovalVersion::T1:
    return "T1 (CB* -> PB*)";
  case RemovalVersion::T2:
    return "T2 (CK* -> PB*)";
  case RemovalVersion::T3:
    return "T3 (CKi -> PBi)";
  case RemovalVersion::T4:
    return "T4 (CKi -> PTi)";
  case RemovalVersion::Megakernel:
    return "megakernel (CB*/CK* -> PB*: packed child threads, T1 or T2)";
  case RemovalVersion::Auto:
    break;
  }
  return "auto";
}

SerialCopyNames threadRunNames() {
  return {generated::removal::SerialPrefix, generated::removal::ThreadPrefix};
}

// T4's copies: under its own names; never in a launch cycle (refused).
// Exported: other files of the program call the copy (external linkage).
SerialCopyOptions threadRunCopying(bool Exported = false) {
  SerialCopyOptions Options;
  Options.Names = threadRunNames();
  Options.Exported = Exported;
  return Options;
}

// A child kernel that a persistent parent grid runs: one the parent
// launches, or a nested child that such a child launches.
struct PersistentChild {
  const LaunchSite *Site; // the first launch of it by the parent or by a child
  const KernelCopy *Copy;
  ChildNaming Naming; // as the parent names it
  // The child launches (itself, or nested children): the grid runs copies
  // of it that record those launches in the parent's queue, in rounds.
  bool Recursive = false;
  // The child's threads work together: a block of the grid runs each child
  // block as one (PersistentBlockChild.h).
  bool WholeBlocks = false;
};

// A parent made persistent (T1/T2) and the children its grid runs, in the
// order the parent first launches them (a record's tag is the index).
struct PersistentParent {
  const LaunchSite *Site; // the first site: its launch holds the parent's copy
  const AcceptedLaunch *Launch;
  RemovalVersion Version;
  std::vector<PersistentChild> Children;
  // The launches in the persistent twin's copy of the body (every launch of
  // the parent).
  std::vector<SourceEdit> Recordings;
  PersistentUnits Units = PersistentUnits::Choose;

  bool recursive() const {
    return std::any_of(Children.begin(), Children.end(),
                       [](const PersistentChild &C) { return C.Recursive; });
  }
  bool wholeBlocks() const {
    return std::any_of(Children.begin(), Children.end(),
                       [](const PersistentChild &C) { return C.WholeBlocks; });
  }
  const PersistentChild *childOf(const clang::FunctionDecl *Child) const {
    for (const PersistentChild &C : Children)
      if (C.Site->Child->getCanonicalDecl() == Child->getCanonicalDecl())
        return &C;
    return nullptr;
  }
  // The tag of a child's records, where the parent launches several.
  std::optional<unsigned> tagOf(const clang::FunctionDecl *Child) const {
    const PersistentChild *C = Children.size() < 2 ? nullptr : childOf(Child);
    return C ? std::optional<unsigned>(C - Children.data()) : std::nullopt;
  }
};

// What the pass decided at one site.
struct SiteDecision {
  const LaunchSite *Site = nullptr;
  LaunchRemark Remark;
  std::optional<RemovalVersion> Version; // removed by this version
  std::optional<AcceptedLaunch> Launch;
  // The child another file defines, whose copy that file's output holds.
  const ExternalChild *External = nullptr;
};

// The versions that make the parent a persistent grid.
bool persistentVersion(RemovalVersion V) {
  return V == RemovalVersion::T1 || V == RemovalVersion::T2 || V == RemovalVersion::Megakernel;
}

std::string lineOf(const LaunchSite &Site) { return std::to_string(Site.Position.Line); }

// Whether the parent can name what T3 writes beside a child of another
// namespace as the launch names the child: qualified, or from a namespace
// nested in the child's; and defined before the parent.
bool namedFromParent(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isBeforeInTranslationUnit(Site.Child->getEndLoc(), Site.Parent->getBeginLoc()))
    return false;
  if (!writtenQualifier(Ctx, Site).empty())
    return true;
  return Site.Child->getEnclosingNamespaceContext()->Encloses(
      Site.Parent->getEnclosingNamespaceContext());
}

// How the parent names what is written beside the child for this site.
ChildNaming namingOf(const clang::ASTContext &Ctx, const LaunchSite &Site,
                     const AcceptedLaunch &A) {
  return {writtenQualifier(Ctx, Site), A.TemplateArguments};
}

// The site taken by one version, or why not.
llvm::Expected<AcceptedLaunch> tryVersion(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                          const LaunchSite &Site, RemovalVersion Version,
                                          ShadowCallees &Shadows, bool AssumeIndependentChildren) {
  // The records of T1-T3 are read by the parent's block or the persistent
  // grid, which a closure called elsewhere (or later) would miss.
  if (Site.DeviceSide && Site.InClosure && Version != RemovalVersion::T4)
    return refusal("the launch is written in a lambda, which may run it outside the parent's "
                   "block; only T4, which runs the child in the calling thread, takes it");
  // T1-T3 name the child's record type and copies, written beside the
  // child, from the parent as the launch qualifies the child, which must
  // then be defined before the parent. The persistent grid's copies of a
  // recursive child are written beside the parent, where the child's own
  // names may not be found.
  if (Version != RemovalVersion::T4 && Site.DeviceSide && Site.Child &&
      !sameEnclosingNamespace(Site)) {
    if (!namedFromParent(Ctx, Site))
      return refusal("the child is in another namespace than the parent and is not named "
                     "qualified or not defined before it; only T4, which runs the child in the "
                     "calling thread, takes it");
    if (Version != RemovalVersion::T3 && !selfLaunches(Launches, *Site.Child).empty())
      return refusal("the child, of another namespace, launches itself: the persistent grid's "
                     "copies of it would be written beside the parent; T3 and T4 take it");
  }
  if (persistentVersion(Version)) {
    llvm::Error Refusal =
        persistentGridRefusal(Ctx, Launches, Site, Shadows, AssumeIndependentChildren);
    // The device runtime is dynamic parallelism, which a cooperatively
    // launched kernel cannot use (a device-side cudaMalloc, say).
    // Creating and destroying a stream that only recorded launches use
    // become cudaSuccess in the grid's copies.
    DeviceRuntimeUse Use = deviceRuntimeUse(Ctx);
    std::set<std::string> Dropped;
    for (const DeviceRuntimeUse::StreamLifetimeCall *C : recordedStreamCalls(Use, Launches, Site))
      Dropped.insert(C->Where);
    // Only what the persistent grid runs matters: the parent, the child and
    // what they call.
    std::set<const clang::FunctionDecl *> Runs;
    std::vector<const clang::FunctionDecl *> Recorded =
        recordedKernels(Launches, *Site.Parent, *Site.Child);
    if (!Refusal) {
      std::vector<const clang::FunctionDecl *> Roots = Recorded;
      Roots.push_back(Site.Parent);
      Runs = callReach(Roots);
    }
    // An error query a macro writes is cudaSuccess in the copies that the
    // twin's definitions hold (errorQueryMacros): the parent's, and a
    // recursive child's.
    std::set<const clang::FunctionDecl *> Wrapped;
    if (!Refusal) {
      Wrapped.insert(Site.Parent->getCanonicalDecl());
      for (const clang::FunctionDecl *Kernel : Recorded)
        if (!selfLaunches(Launches, *Kernel).empty())
          Wrapped.insert(Kernel->getCanonicalDecl());
    }
    for (size_t I = 0; I < Use.OtherCalls.size(); ++I)
      if (!Refusal && !Dropped.count(Use.OtherCalls[I]) && runsIn(Use.OtherCallers[I], Runs) &&
          !(Use.MacroErrorQueries.count(I) && Use.OtherCallers[I] &&
            Wrapped.count(Use.OtherCallers[I]->getCanonicalDecl())))
        Refusal = refusal("device code the persistent grid runs calls the device runtime (" +
                          Use.OtherCalls[I] +
                          "): the grid is launched cooperatively, and a cooperative kernel "
                          "cannot use it");
    AcceptanceSteps Steps{generated::removal::SerialPrefix, true};
    Steps.NamesAfterChild = true;
    llvm::Expected<AcceptedLaunch> A = acceptLaunch(Ctx, Site, std::move(Refusal), Steps);
    if (!A)
      return A.takeError();
    for (const LaunchSite *Host : hostLaunchesOf(Launches, *Site.Parent)) {
      llvm::Expected<LaunchText> Text = readLaunchText(Ctx, *Host);
      if (!Text)
        return refusal("the parent's launch at line " + lineOf(*Host) +
                       " cannot be made persistent: " + llvm::toString(Text.takeError()));
    }
    for (const clang::FunctionDecl *Kernel : Recorded)
      for (const LaunchSite *Own : selfLaunches(Launches, *Kernel)) {
        llvm::Expected<LaunchText> Text = readLaunchText(Ctx, *Own);
        if (!Text)
          return refusal("the child's launch of '" + Own->ChildName + "' at line " + lineOf(*Own) +
                         " cannot be recorded: " + llvm::toString(Text.takeError()));
      }
    return A;
  }
  if (Version == RemovalVersion::T4) {
    // Its copy may go after the #include of a header that defines the child.
    AcceptanceSteps Steps{generated::removal::SerialPrefix};
    Steps.ChildInIncludedFile = true;
    return acceptLaunch(Ctx, Site, threadRunRefusal(Launches, Site, Shadows), Steps);
  }
  AcceptanceSteps Steps{"", true};
  Steps.NamesAfterChild = true;
  llvm::Expected<AcceptedLaunch> A =
      acceptLaunch(Ctx, Site, blockRunRefusal(Ctx, Launches, Site, Shadows), Steps);
  if (A && A->NeedsPrototype)
    return refusal("the child is defined after the parent: T3 writes the record of its launch "
                   "before the parent");
  return A;
}

// Whether the host picks between the megakernel and the original at run
// time (Fig. 7a): only when the child grids are uniform, known from a
// constant configuration; with data-dependent sizes the megakernel balances
// them.
bool childSizesKnown(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  return constantOperand(Ctx, Site.Grid) && constantOperand(Ctx, Site.Block);
}

// Whether the megakernel runs a small child in its launching thread: only
// where the child's threads run no loop, so few threads are little work.
bool inlinesSmallChild(const LaunchSite &Site) {
  return Site.Child && !threadsMayLoop(*Site.Child);
}

std::string megakernelReason(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  if (childSizesKnown(Ctx, Site))
    return "uniform child grids (a constant configuration): the host launches the persistent "
           "grid when the device holds more blocks than the parent's grid, else the parent, its "
           "launch run by the launching thread (T4)";
  std::string Small =
      !inlinesSmallChild(Site)
          ? "every child is recorded (its threads run loops, so few threads may still be much "
            "work)"
          : "a child of at most LAUNCHOPT_PERSISTENT_INLINE_THREADS threads runs in the launching "
            "thread (T4), the others are recorded";
  return "child grids of data-dependent sizes: " + Small +
         ", and the persistent grid (at least LAUNCHOPT_PERSISTENT_MIN_BLOCKS_PER_SM blocks per "
         "SM) balances them, taking a block's worth of packed child threads, a child block (T1) "
         "or a whole child grid (T2) at a time as the recorded launches decide";
}

// A launch of a child that another file defines: only T4 takes it, since
// T3 and the persistent grid build code from the child's body here.
void decideExternal(clang::ASTContext &Ctx, const RemoveLaunchesOptions &Options,
                    const ExternalChild &External, SiteDecision &D) {
  const LaunchSite &Site = *D.Site;
  llvm::Error Refusal = launchSiteRefusal(Site);
  if (!Refusal && Options.Version != RemovalVersion::Auto && Options.Version != RemovalVersion::T4)
    Refusal = refusal(std::string(versionName(Options.Version)) +
                      " needs the child's body in the launching file; the child is defined in '" +
                      External.DefiningFile + "' (T4 takes this launch)");
  llvm::Expected<AcceptedLaunch> A = acceptExternalLaunch(Ctx, Site, External, std::move(Refusal),
                                                          {generated::removal::SerialPrefix});
  if (!A) {
    D.Remark.Message = llvm::toString(A.takeError());
    return;
  }
  D.Version = RemovalVersion::T4;
  D.Launch = std::move(*A);
  D.External = &External;
  D.Remark.Parameters["version"] = versionName(RemovalVersion::T4);
  D.Remark.Parameters["defined-in"] = External.DefiningFile;
  if (Options.Version == RemovalVersion::Auto)
    D.Remark.Parameters["auto"] = std::string(versionName(RemovalVersion::T4)) +
                                  ": the child is defined in another file, whose output holds "
                                  "the copy that runs its grid in the parent thread";
}

// auto's choice of a version at a site, and why.
void takeVersion(SiteDecision &D, RemovalVersion V, AcceptedLaunch A, const std::string &Why) {
  D.Remark.Parameters["auto"] = std::string(versionName(V)) + ": " + Why;
  D.Version = V;
  D.Launch = std::move(A);
  D.Remark.Parameters["version"] = versionName(V);
}

void takeMegakernel(SiteDecision &D, AcceptedLaunch A, const std::string &Why) {
  takeVersion(D, RemovalVersion::Megakernel, std::move(A), Why);
}

void decide(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
            const RemoveLaunchesOptions &Options, ShadowCallees &Shadows, SiteDecision &D) {
  const LaunchSite &Site = *D.Site;
  if (const ExternalChild *External = acceptedExternalChild(Launches, Site)) {
    decideExternal(Ctx, Options, *External, D);
    return;
  }
  std::vector<RemovalVersion> Tries;
  if (Options.Version != RemovalVersion::Auto) {
    Tries.push_back(Options.Version);
  } else if (launchesItself(Site)) {
    // No parent thread or block can run a recursion (T3/T4): the persistent
    // grid, or nothing.
    llvm::Expected<AcceptedLaunch> A = tryVersion(Ctx, Launches, Site, RemovalVersion::Megakernel,
                                                  Shadows, Options.AssumeIndependentChildren);
    if (!A) {
      D.Remark.Message = llvm::toString(A.takeError());
      return;
    }
    takeMegakernel(D, std::move(*A),
                   std::string("the kernel launches itself, and only the persistent grid runs a "
                               "recursion; ") +
                       (childRunsAsWholeBlocks(Launches, Site)
                            ? "its threads work together, so its blocks are taken one at a time "
                              "(T1)"
                        : inlinesSmallChild(Site)
                            ? "a launch of at most LAUNCHOPT_PERSISTENT_INLINE_THREADS threads "
                              "runs in the launching thread, the others are recorded"
                            : "every child is recorded (its threads run loops, so few threads "
                              "may still be much work)"));
    return;
  } else if (llvm::Error Common = removalRefusal(Site)) {
    D.Remark.Message = llvm::toString(std::move(Common));
    return;
  } else {
    VersionChoice Choice = selectVersion(Ctx, Launches, Site);
    // One child block per parent block, from its leader thread: the parent
    // block runs it right after its own work (T3), and the parent's grid
    // spreads the children over the device already; a persistent grid adds
    // a cooperative launch and grid barriers and balances nothing more
    // (node_counts_unread_smem on the H200: T3 0.020 ms, T1 0.072). A child
    // that launches keeps its launches under T3; the grid records them.
    if (Site.OneThreadPerBlock && constantOperand(Ctx, Site.Grid) == 1u &&
        selfLaunches(Launches, *Site.Child).empty()) {
      llvm::Expected<AcceptedLaunch> A = tryVersion(Ctx, Launches, Site, RemovalVersion::T3,
                                                    Shadows, Options.AssumeIndependentChildren);
      if (A) {
        takeVersion(D, RemovalVersion::T3, std::move(*A),
                    "one child block per parent block, launched by one thread: the parent block "
                    "runs it, and the parent's grid spreads the children over the device");
        return;
      }
      llvm::consumeError(A.takeError());
    }
    // Where one parent thread would run the child (T4), the persistent grid
    // balances the children over the whole device instead when it can; and
    // where the launching block would run a child whose threads work
    // together (T3), any block of the grid does (block_children on the H200:
    // T1 0.95 ms, T2 0.59, T3 1.48).
    bool WholeBlocks = childRunsAsWholeBlocks(Launches, Site);
    if (Choice.Version == RemovalVersion::T4 || WholeBlocks) {
      llvm::Expected<AcceptedLaunch> A = tryVersion(Ctx, Launches, Site, RemovalVersion::Megakernel,
                                                    Shadows, Options.AssumeIndependentChildren);
      if (A) {
        takeMegakernel(D, std::move(*A),
                       WholeBlocks ? "the child's threads work together: any block of the "
                                     "persistent grid runs its blocks, one at a time (T1), "
                                     "rather than the launching block (T3)"
                                   : megakernelReason(Ctx, Site));
        return;
      }
      llvm::consumeError(A.takeError());
    }
    D.Remark.Parameters["auto"] = std::string(versionName(Choice.Version)) + ": " + Choice.Why;
    Tries.push_back(Choice.Version);
    Tries.push_back(Choice.Version == RemovalVersion::T3 ? RemovalVersion::T4 : RemovalVersion::T3);
  }
  std::vector<std::string> Reasons;
  for (RemovalVersion V : Tries) {
    llvm::Expected<AcceptedLaunch> A =
        tryVersion(Ctx, Launches, Site, V, Shadows, Options.AssumeIndependentChildren);
    if (!A) {
      std::string Why = llvm::toString(A.takeError());
      Reasons.push_back(
          Tries.size() > 1 ? std::string(V == RemovalVersion::T3 ? "T3" : "T4") + ": " + Why : Why);
      continue;
    }
    D.Version = V;
    D.Launch = std::move(*A);
    D.Remark.Parameters["version"] = versionName(V);
    if (!Reasons.empty())
      D.Remark.Parameters["auto"] += " (not possible: " + Reasons.front() + ")";
    return;
  }
  D.Remark.Message = llvm::join(Reasons, "; ");
}

void refuse(SiteDecision &D, const std::string &Why) {
  D.Version.reset();
  D.Launch.reset();
  D.Remark.Parameters.erase("version");
  D.Remark.Message = Why;
}

// T1, T2 and T3 run a removed child after the parent thread goes on: a later
// launch of the thread into the same ordered stream that is not removed the
// same way (left as a launch, or run at once by T4) would overtake it.
// Returns whether it refused any.
bool refuseOvertakenRemovals(const LaunchAnalysis &Launches, std::vector<SiteDecision> &Decisions) {
  bool Refused = false;
  for (SiteDecision &Later : Decisions) {
    if (!Later.Site->DeviceSide || !mayReorderWithEarlierLaunch(Launches, *Later.Site))
      continue;
    for (unsigned P : orderedStreamPartners(Launches, *Later.Site)) {
      SiteDecision &Earlier = Decisions[P];
      if (&Earlier == &Later || !Earlier.Version || *Earlier.Version == RemovalVersion::T4 ||
          Earlier.Version == Later.Version)
        continue;
      refuse(Earlier, "the launch of '" + Later.Site->ChildName + "' at line " +
                          lineOf(*Later.Site) +
                          ", which may follow this one into the same stream, is " +
                          (Later.Version ? "removed another way" : "not removed") +
                          ": it would run before this child, which " +
                          versionName(*Earlier.Version) + " runs later");
      Refused = true;
    }
  }
  return Refused;
}

// A removed child runs at another time than its launch: before the parent
// thread goes on (T4) or when the parent block is done (T3). Launches of one
// parent thread into an ordered stream keep their order only when all of the
// parent's launches are removed the same way; and a block's T3 lists run one
// child after the other.
void keepStreamOrder(const LaunchAnalysis &Launches, const RemoveLaunchesOptions &Options,
                     std::vector<SiteDecision> &Decisions) {
  // Launches of other calls (UnseenLaunchOrder.h) are not removed with this
  // one: a removed child runs before those launched earlier, and those
  // launched later run before a child T1-T3 run later.
  for (SiteDecision &D : Decisions) {
    if (!D.Version || Options.AssumeIndependentChildren)
      continue;
    if (D.Site->FollowsUnseenLaunches)
      refuse(D, D.Site->UnseenOrder +
                    ": a removed child could run before them (pass "
                    "--assume-independent-children if they do not depend on each other)");
    else if (D.Site->FollowedByUnseenLaunches && *D.Version != RemovalVersion::T4)
      refuse(D, D.Site->UnseenOrder + ": they would run before this child, which " +
                    versionName(*D.Version) + " runs later");
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    if (!Options.AssumeIndependentChildren)
      Changed |= refuseOvertakenRemovals(Launches, Decisions);
    for (const auto &[Parent, Ids] : Launches.SitesByParent) {
      // SitesByParent holds indices into Sites (Id - 1).
      std::set<std::optional<RemovalVersion>> Versions;
      for (unsigned Id : Ids)
        Versions.insert(Decisions[Id].Version);
      std::string FirstBlockChild;
      for (unsigned Id : Ids) {
        SiteDecision &D = Decisions[Id];
        if (!D.Version)
          continue;
        if (Versions.size() > 1 && !Options.AssumeIndependentChildren &&
            mayReorderWithEarlierLaunch(Launches, *D.Site)) {
          refuse(D, "the parent thread launches other children into the same stream before this "
                    "one, and not all of them are removed the same way: a removed child could "
                    "run before them (pass --assume-independent-children if they do not "
                    "depend on each other)");
          Changed = true;
          continue;
        }
        if (*D.Version != RemovalVersion::T3)
          continue;
        if (FirstBlockChild.empty())
          FirstBlockChild = D.Site->ChildName;
        else if (D.Site->ChildName != FirstBlockChild &&
                 D.Site->StreamKind != LaunchStream::FireAndForget) {
          refuse(D, "the parent block also launches '" + FirstBlockChild +
                        "' into an ordered stream: T3 runs all recorded launches of one child "
                        "before the other's");
          Changed = true;
        }
      }
    }
  }
}

std::string threadRunStatement(const LaunchSite &Site, const AcceptedLaunch &A,
                               const GridGuard &Guard) {
  const LaunchText &L = A.Text;
  std::string Out = "{ // launchopt: launch of '" + Site.ChildName +
                    "' removed (T4): this thread runs the child grid\n";
  std::string Run;
  for (const std::string *Operand : {&L.SharedMemory, &L.Stream})
    if (!Operand->empty())
      Run += L.Indent + "    (void)(" + *Operand + ");\n";
  Run += L.Indent + "    " + A.Callee + "(" + L.argumentsThen() + Guard.GridVar + ", " +
         Guard.BlockVar + ");\n";
  return Out + guardedRun(Guard, L, Run) + L.Indent + "}";
}

// Whether a T3 launch that finds its block's slots full may be run by the
// launching thread at once: its threads are independent, and no earlier
// launch of the thread into an ordered stream must run before it.
bool overflowRunsSerially(const LaunchAnalysis &Launches, const LaunchSite &Site,
                          ShadowCallees &Shadows) {
  if (Site.StreamKind != LaunchStream::FireAndForget && mayReorderWithEarlierLaunch(Launches, Site))
    return false;
  llvm::Error Blocker = threadRunRefusal(Launches, Site, Shadows);
  bool Serial = !Blocker;
  llvm::consumeError(std::move(Blocker));
  return Serial;
}

// The child's own launches that stay device launches in the copy that runs
// it in place of this launch (nested children).
void noteNestedLaunches(const LaunchAnalysis &Launches, const std::vector<SiteDecision> &Decisions,
                        SiteDecision &D) {
  auto It = Launches.SitesByParent.find(D.Site->Child);
  if (It == Launches.SitesByParent.end())
    return;
  std::vector<std::string> Staying;
  for (unsigned Id : It->second) {
    const SiteDecision &Nested = Decisions[Id];
    if (Nested.Version == RemovalVersion::T4)
      continue;
    Staying.push_back("'" + Nested.Site->ChildName + "' at line " + lineOf(*Nested.Site) + " (" +
                      (Nested.Version ? "removed by T3 in the kernel itself, not in this copy"
                                      : Nested.Remark.Message) +
                      ")");
  }
  if (!Staying.empty())
    D.Remark.Parameters["nested-launches"] =
        "stay device launches in the copy of the child: " + llvm::join(Staying, "; ");
}

bool persistent(const SiteDecision &D) { return D.Version && persistentVersion(*D.Version); }

// Whether the original parent keeps a launch that its persistent twin
// records, for a device without cooperative launch: a kernel's launch of
// itself, and a child whose threads work together, which no parent thread
// can run (T4).
bool originalKeepsLaunch(const LaunchAnalysis &Launches, const SiteDecision &D) {
  return persistent(D) && (launchesItself(*D.Site) || childRunsAsWholeBlocks(Launches, *D.Site));
}

// A persistent twin is launched cooperatively and cannot launch: every
// launch of its parent is recorded, or none is.
void keepTwinsWhole(const LaunchAnalysis &Launches, std::vector<SiteDecision> &Decisions) {
  for (const auto &[Parent, Ids] : Launches.SitesByParent) {
    auto Left = std::find_if(Ids.begin(), Ids.end(),
                             [&](unsigned Id) { return !persistent(Decisions[Id]); });
    if (Left == Ids.end())
      continue;
    for (unsigned Id : Ids)
      if (persistent(Decisions[Id]))
        refuse(Decisions[Id], "the parent's launch at line " + lineOf(*Decisions[*Left].Site) +
                                  " is not recorded by its persistent grid (" +
                                  (Decisions[*Left].Version ? "removed another way"
                                                            : Decisions[*Left].Remark.Message) +
                                  "), and a cooperative kernel cannot launch");
  }
}

// A recursive child's own launches stay launches in the kernel and in T4's
// copy (the original parent's, for a device without cooperative launch);
// the persistent grid's copies record them.
void noteRecordedRecursion(const LaunchAnalysis &Launches, const PersistentParent &P,
                           const PersistentChild &C, std::vector<SiteDecision> &Decisions) {
  const std::string &Parent = P.Launch->Parent->Name;
  std::string Thread = recursiveChildNames(Parent).ThreadPrefix + C.Copy->Name;
  if (launchesItself(*C.Site)) {
    for (const LaunchSite *Own : selfLaunches(Launches, *C.Site->Child))
      if (launchesItself(*Own))
        Decisions[Own->Id - 1].Remark.Parameters["nested-launches"] =
            "the kernel launches itself: the host's launch starts the persistent grid, which "
            "runs the kernel's blocks and then, in rounds until none is recorded, the launches "
            "they and its copies (" +
            Thread +
            ") record; the kernel as written, for a device without cooperative launch, "
            "launches them";
    return;
  }
  std::vector<std::string> Lines;
  bool OnlyItself = true;
  for (const LaunchSite *Own : selfLaunches(Launches, *C.Site->Child)) {
    bool Itself = Own->Child->getCanonicalDecl() == C.Site->Child->getCanonicalDecl();
    OnlyItself &= Itself;
    Lines.push_back(Itself ? lineOf(*Own) : lineOf(*Own) + ", of '" + Own->ChildName + "'");
    Decisions[Own->Id - 1].Remark.Parameters["recorded-by"] =
        "the persistent grid of '" + Parent + "' (" + Thread + "), which runs this kernel";
  }
  Decisions[C.Site->Id - 1].Remark.Parameters["nested-launches"] =
      std::string(OnlyItself ? "the child launches itself" : "the child launches") + " (line " +
      llvm::join(Lines, ", line ") + "): in the persistent grid its copies (" + Thread +
      ") record those launches in the same queue, run in rounds until none is recorded; the "
      "kernel and " +
      (C.WholeBlocks ? "the original parent" : "T4's copy") + " launch them";
}

// The serial copy that runs a recorded child in the recording thread when
// the queue is full: none for a child whose threads work together (a block
// of the grid keeps it), the grid's copy of a child that launches, else
// T4's.
std::string overflowCopy(const PersistentParent &P, const PersistentChild &C) {
  if (C.WholeBlocks)
    return "";
  return serialNameFor(C.Copy->Name, C.Recursive ? recursiveChildNames(P.Launch->Parent->Name)
                                                 : threadRunNames());
}

// The copies of a child that launches for the persistent grid of P's
// parent: its launches are recorded in the parent's queue, or run by the
// launching thread through the same copies. A kernel that launches itself
// is its own parent, whose launches of other children the twin records
// already; another child's launches are of itself or of nested children.
RecursiveChildCopies recursiveChildCopies(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                          ShadowCallees &Shadows,
                                          const std::vector<SourceEdit> &PersistentEdits,
                                          const PersistentParent &P, const PersistentChild &C) {
  const KernelCopy &Child = *C.Copy;
  const KernelCopy &Parent = *P.Launch->Parent;
  SerialCopyOptions Copying;
  Copying.Names = recursiveChildNames(Parent.Name);
  std::vector<SourceEdit> Recordings;
  for (const LaunchSite *Own : selfLaunches(Launches, *C.Site->Child)) {
    LaunchText Text = llvm::cantFail(readLaunchText(Ctx, *Own));
    // A kernel that is its own parent launches other children too: the
    // twin's recordings of those launches.
    if (launchesItself(*C.Site) && !launchesItself(*Own)) {
      for (const SourceEdit &E : P.Recordings)
        if (E.Offset == Text.Statement.Begin)
          Recordings.push_back(E);
      continue;
    }
    const PersistentChild &Launched = *P.childOf(Own->Child);
    bool Itself = &Launched == &C;
    GridGuard Guard = guardLaunch(Ctx, *Own, Text);
    Recordings.push_back(
        {Text.Statement.Begin, Text.Statement.End - Text.Statement.Begin,
         gridRecordingStatement(recordedLaunchText(Ctx, *Own, Text), Guard, Own->Id, *Launched.Copy,
                                {"", Itself ? Child.TemplateArgs : ""}, Parent,
                                overflowCopy(P, Launched), P.Units, inlinesSmallChild(*Own),
                                P.tagOf(Own->Child))});
  }
  // The recordings replace what other versions made of those launches in
  // the copies of the kernel (T4's, say).
  std::vector<SourceEdit> BodyEdits;
  for (const SourceEdit &E : PersistentEdits)
    if (std::none_of(Recordings.begin(), Recordings.end(),
                     [&](const SourceEdit &R) { return R.Offset == E.Offset; }))
      BodyEdits.push_back(E);
  std::vector<SourceEdit> Calls = Shadows.callEdits(*C.Site->Child);
  BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
  BodyEdits.insert(BodyEdits.end(), Recordings.begin(), Recordings.end());
  return {Child.Name,
          "\n" + serialPrototype(Child, Copying) +
              serialDefinitions(Ctx, Child, BodyEdits, Copying),
          Copying.Names.ThreadPrefix + Child.Name};
}

// The persistent twins: the parents whose launches the pass records, with
// the children each grid runs (the parent's, then the nested children they
// launch) and how it takes their work. Nested children's copies are read
// into NestedCopies.
std::vector<PersistentParent> persistentParents(const clang::ASTContext &Ctx,
                                                const LaunchAnalysis &Launches,
                                                const std::vector<SiteDecision> &Decisions,
                                                std::deque<KernelCopy> &NestedCopies) {
  std::vector<PersistentParent> Twins;
  auto Add = [&](PersistentParent &Twin, const LaunchSite &Site, const KernelCopy &Copy,
                 ChildNaming Naming) {
    if (Twin.childOf(Site.Child))
      return;
    Twin.Children.push_back({&Site, &Copy, std::move(Naming),
                             !selfLaunches(Launches, *Site.Child).empty(),
                             childRunsAsWholeBlocks(Launches, Site)});
  };
  for (const SiteDecision &D : Decisions) {
    if (!persistent(D))
      continue;
    const LaunchSite &Site = *D.Site;
    auto Twin = std::find_if(Twins.begin(), Twins.end(),
                             [&](const auto &P) { return P.Site->Parent == Site.Parent; });
    if (Twin == Twins.end()) {
      Twins.push_back({&Site, &*D.Launch, *D.Version});
      Twin = std::prev(Twins.end());
    }
    Add(*Twin, Site, D.Launch->Child, namingOf(Ctx, Site, *D.Launch));
  }
  for (PersistentParent &P : Twins) {
    // The nested children (RemovalChecks: recordedLaunchRefusal took them).
    for (size_t I = 0; I < P.Children.size(); ++I) {
      if (launchesItself(*P.Children[I].Site))
        continue;
      for (const LaunchSite *Own : selfLaunches(Launches, *P.Children[I].Site->Child)) {
        if (P.childOf(Own->Child))
          continue;
        NestedCopies.push_back(llvm::cantFail(readKernel(Ctx, *Own->Child->getDefinition())));
        Add(P, *Own, NestedCopies.back(), {});
      }
    }
    // Whole child blocks are never packed as threads of several, and are
    // taken one at a time (T1): the device's choice from the recorded
    // launches (Fig. 7b) took whole grids (T2) for qt and ms, 1.5x and 1.7x
    // slower on the H200 (bench/results/removal-choice).
    P.Units = P.Version == RemovalVersion::T1   ? PersistentUnits::ChildBlocks
              : P.Version == RemovalVersion::T2 ? PersistentUnits::ChildGrids
              : P.wholeBlocks()                 ? PersistentUnits::ChildBlocks
                                                : PersistentUnits::Choose;
  }
  return Twins;
}

// When a host-side launch of the parent launches its persistent grid. A
// child that launches itself makes work that has nothing to do with the
// parent's grid, which may be a few blocks: the grid is spread over the
// device. The megakernel leaves uniform children (constant configurations)
// to the original parent's threads when the device holds no more blocks
// than its grid.
PersistentWhen persistentWhen(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                              const PersistentParent &P) {
  if (P.recursive())
    return PersistentWhen::AlwaysSpread;
  if (P.Version != RemovalVersion::Megakernel)
    return PersistentWhen::Always;
  for (const LaunchSite *Own : selfLaunches(Launches, *P.Site->Parent))
    if (!childSizesKnown(Ctx, *Own))
      return PersistentWhen::AlwaysSpread;
  return PersistentWhen::MoreResidentThanOriginal;
}

} // namespace

llvm::Error RemoveLaunchesPass::acceptChildOfOtherFiles(clang::ASTContext &Ctx,
                                                        const LaunchAnalysis &Launches,
                                                        const clang::FunctionDecl &Child) const {
  if (Options.Version != RemovalVersion::Auto && Options.Version != RemovalVersion::T4)
    return refusal(std::string(versionName(Options.Version)) +
                   " needs the child's body in the launching file (only T4 removes launches of "
                   "a child defined in another file)");
  if (llvm::Error E = exportableChild(Child))
    return E;
  if (llvm::Error Blocker = threadRunChildRefusal(featuresOf(Launches, Child)))
    return Blocker;
  // T4 refuses recursion: a thread would run the child's launches of itself.
  if (inLaunchCycle(Launches, &Child))
    return refusal("the child launches itself (recursion): a parent thread could not run its "
                   "launches");
  return copiesForOtherFilesBlocker(Ctx, Child);
}

PassResult RemoveLaunchesPass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  ShadowCallees Shadows(Ctx);
  std::vector<SiteDecision> Decisions(Launches.Sites.size());
  for (const LaunchSite &Site : Launches.Sites) {
    SiteDecision &D = Decisions[Site.Id - 1];
    D.Site = &Site;
    D.Remark = remarkFor(Site, PassName);
    decide(Ctx, Launches, Options, Shadows, D);
  }
  keepStreamOrder(Launches, Options, Decisions);
  keepTwinsWhole(Launches, Decisions);

  // Which kernels get copies, and whether every device launch is gone.
  std::map<const clang::FunctionDecl *, KernelCopy> ThreadRun;
  // T4's children defined in an included header: where their copies go.
  std::map<const clang::FunctionDecl *, IncludedPlacement> InHeader;
  std::map<const clang::FunctionDecl *, BlockRunChild> BlockRun;
  std::map<const clang::FunctionDecl *, KernelCopy> GridRecords;
  std::vector<PersistentParent> Persistent;
  std::set<const clang::FunctionDecl *> Copied;
  bool AllRemoved = Launches.Unresolved.empty();
  unsigned DeviceSites = 0;
  // Kernels or copies that other files launch or call, and copies that live
  // in another file, link only with relocatable device code.
  bool LinksOtherFiles =
      !Launches.ExportedChildren.empty() || !Launches.LaunchedFromOtherFiles.empty();
  for (SiteDecision &D : Decisions) {
    DeviceSites += D.Site->DeviceSide;
    // A kernel that launches itself keeps its launches, for a device
    // without cooperative launch.
    if (D.Site->DeviceSide && (!D.Version || originalKeepsLaunch(Launches, D)))
      AllRemoved = false;
    if (D.External)
      LinksOtherFiles = true;
    else if (D.Version)
      Copied.insert(D.Site->Child);
  }
  if (LinksOtherFiles)
    AllRemoved = false;
  // A T3 site inside a kernel that is itself copied stays a launch there.
  for (SiteDecision &D : Decisions)
    if (D.Version == RemovalVersion::T3 && Copied.count(D.Site->Parent))
      AllRemoved = false;

  std::deque<KernelCopy> NestedCopies;
  Persistent = persistentParents(Ctx, Launches, Decisions, NestedCopies);
  // Nested children get the records and the copies that run a thread of
  // them as the parent's children do.
  for (const PersistentParent &P : Persistent)
    for (const PersistentChild &C : P.Children) {
      if (C.Site->Parent == P.Site->Parent)
        continue;
      GridRecords.emplace(C.Site->Child, *C.Copy);
      Copied.insert(C.Site->Child);
      if (!C.Recursive)
        ThreadRun.emplace(C.Site->Child, *C.Copy);
    }
  std::vector<SourceEdit> CopyEdits;
  std::map<const clang::FunctionDecl *, std::vector<BlockRunList>> ParentLists;
  std::map<const clang::FunctionDecl *, const KernelCopy *> ParentBodies;
  std::set<std::pair<unsigned, const clang::FunctionDecl *>> Prototypes;
  for (SiteDecision &D : Decisions) {
    if (!D.Version)
      continue;
    const LaunchSite &Site = *D.Site;
    AcceptedLaunch &A = *D.Launch;
    const FileRange &Statement = A.Text.Statement;
    GridGuard Guard = guardLaunch(Ctx, Site, A.Text);
    if (!Guard.Fits.empty())
      D.Remark.Parameters["launched-if-grid-exceeds"] = Guard.Counts;
    if (persistent(D)) {
      // The original parent keeps running the child in the launching thread
      // (T4), for a device without cooperative launch; its persistent twin
      // records the launch. A kernel that launches itself, or one whose
      // child no thread can run alone, keeps launching.
      bool WholeBlocks = childRunsAsWholeBlocks(Launches, Site);
      if (!originalKeepsLaunch(Launches, D))
        Result.Edits.replace(Statement.Begin, Statement.End - Statement.Begin,
                             threadRunStatement(Site, A, Guard));
      // The copy that runs one child thread (the grid's, unless the child
      // launches itself and the grid runs copies that record those launches).
      if (!launchesItself(Site))
        ThreadRun.emplace(Site.Child, A.Child);
      GridRecords.emplace(Site.Child, A.Child);
      PersistentParent &Twin =
          *std::find_if(Persistent.begin(), Persistent.end(),
                        [&](const auto &P) { return P.Site->Parent == Site.Parent; });
      if (*D.Version == RemovalVersion::Megakernel && !WholeBlocks &&
          Twin.Units == PersistentUnits::ChildBlocks)
        D.Remark.Parameters["auto"] +=
            "; another child of the parent works together in blocks, so the grid takes every "
            "child's blocks one at a time (T1)";
      std::string Serial = overflowCopy(Twin, *Twin.childOf(Site.Child));
      Twin.Recordings.push_back(
          {Statement.Begin, Statement.End - Statement.Begin,
           gridRecordingStatement(recordedLaunchText(Ctx, Site, A.Text), Guard, Site.Id, A.Child,
                                  namingOf(Ctx, Site, A), *A.Parent, Serial, Twin.Units,
                                  inlinesSmallChild(Site), Twin.tagOf(Site.Child))});
      std::vector<std::string> Hosts;
      for (const LaunchSite *Host : hostLaunchesOf(Launches, *Site.Parent))
        Hosts.push_back(lineOf(*Host));
      D.Remark.Parameters["function"] = generated::removal::PersistentPrefix + A.Parent->Name;
      D.Remark.Parameters["persistent-launches"] = "line " + llvm::join(Hosts, ", line ");
      if (WholeBlocks)
        D.Remark.Parameters["child-blocks"] =
            std::string("the child's threads work together: a block of the persistent grid "
                        "runs each child block as one, with the same threads; ") +
            (launchesItself(Site) ? "the kernel as written" : "the original parent") +
            " keeps the launch";
    } else if (*D.Version == RemovalVersion::T4) {
      std::string Text = threadRunStatement(Site, A, Guard);
      Result.Edits.replace(Statement.Begin, Statement.End - Statement.Begin, Text);
      CopyEdits.push_back({Statement.Begin, Statement.End - Statement.Begin, Text});
      const clang::FunctionDecl *Child = D.External ? D.External->Declaration : Site.Child;
      bool Exported = D.External || Launches.ExportedChildren.count(Child);
      if (A.NeedsPrototype && Prototypes.insert({A.ParentStart, Child}).second)
        insertPrototype(Result.Edits, A,
                        serialPrototype(A.Child, threadRunCopying(Exported)) + "\n");
      if (!D.External)
        ThreadRun.emplace(Site.Child, A.Child);
      if (!D.External)
        noteChildInHeader(A, Site.Child, InHeader, D.Remark);
      D.Remark.Parameters["function"] = serialNameFor(A.Child.Name, threadRunNames());
      if (std::optional<std::string> Combined = serialAtomics(A.Child))
        D.Remark.Parameters["serial-atomics"] = *Combined;
    } else {
      ChildNaming Naming = namingOf(Ctx, Site, A);
      std::string Serial;
      if (overflowRunsSerially(Launches, Site, Shadows)) {
        Serial = serialNameFor(A.Child.Name, threadRunNames());
        ThreadRun.emplace(Site.Child, A.Child);
        D.Remark.Parameters["overflow"] = "run by the launching thread (" + Serial + ")";
      }
      Result.Edits.replace(Statement.Begin, Statement.End - Statement.Begin,
                           recordingStatement(recordedLaunchText(Ctx, Site, A.Text), Guard, Site.Id,
                                              A.Child, Naming, Serial));
      auto [It, New] = BlockRun.emplace(Site.Child, BlockRunChild{A.Child, false});
      It->second.Synchronizes =
          Launches.ChildFeatures.at(Site.Child).Barriers.count("__syncthreads");
      std::vector<BlockRunList> &List = ParentLists[Site.Parent];
      if (std::none_of(List.begin(), List.end(),
                       [&](const BlockRunList &L) { return L.Child == &It->second; }))
        List.push_back({&It->second, Naming});
      if (!ParentBodies.count(Site.Parent))
        ParentBodies[Site.Parent] = &*A.Parent;
      D.Remark.Parameters["function"] = generated::removal::BlockThreadPrefix + A.Child.Name;
    }
    D.Remark.Applied = true;
  }
  for (SiteDecision &D : Decisions)
    if (D.Version)
      noteNestedLaunches(Launches, Decisions, D);
  for (const PersistentParent &P : Persistent)
    for (const PersistentChild &C : P.Children)
      if (C.Recursive)
        noteRecordedRecursion(Launches, P, C, Decisions);

  if (AllRemoved && DeviceSites > 0) {
    DeviceRuntimeUse Use = deviceRuntimeUse(Ctx);
    const LaunchSite &First = *std::find_if(Decisions.begin(), Decisions.end(), [](const auto &D) {
                                 return D.Site->DeviceSide;
                               })->Site;
    LaunchRemark Note = remarkFor(First, PassName);
    Note.Subject = "device-side launches";
    Note.Note = true;
    if (Use.OtherCalls.empty()) {
      for (const SourceEdit &E : Use.ErrorQueries) {
        Result.Edits.replace(E.Offset, E.Length, E.Text);
        CopyEdits.push_back(E);
      }
      Note.Message = "every device-side launch of this file is removed: the output builds as "
                     "plain CUDA, without -rdc=true and -lcudadevrt";
      if (!Use.ErrorQueries.empty())
        Note.Message += " (device-side cudaGetLastError/cudaPeekAtLastError, which can only "
                        "return cudaSuccess now, became cudaSuccess)";
    } else {
      Note.Message = "every device-side launch of this file is removed, but device code still "
                     "calls the device runtime (" +
                     llvm::join(Use.OtherCalls, ", ") + "): build with -rdc=true -lcudadevrt";
    }
    Result.Remarks.push_back(Note);
  }
  std::vector<LaunchRemark> SiteRemarks;
  for (SiteDecision &D : Decisions)
    SiteRemarks.push_back(D.Remark);
  Result.Remarks.insert(Result.Remarks.begin(), SiteRemarks.begin(), SiteRemarks.end());

  // Copies are built last, from the bodies as this pass edited them: a
  // child's own T4-removed launches are removed in its copies too.
  // Children that other files launch get their T4 copies here, launched
  // here or not; acceptChildOfOtherFiles took them.
  for (const clang::FunctionDecl *Child : addExportedChildren(Ctx, Launches, Shadows, ThreadRun))
    Copied.insert(Child);
  std::set<const clang::FunctionDecl *> Shadowed = Copied;
  for (const PersistentParent &P : Persistent)
    Shadowed.insert(P.Site->Parent);
  Shadows.emit(Result.Edits, CopyEdits, Shadowed);
  for (const auto &[Child, Copy] : ThreadRun) {
    bool Exported = Launches.ExportedChildren.count(Child);
    // A header's child is copied from the header's text, with none of this
    // file's edits, after the #include that brings it in.
    if (auto Header = InHeader.find(Child); Header != InHeader.end()) {
      const IncludedPlacement &At = Header->second;
      Result.Edits.insert(At.Offset,
                          At.NamespacesOpen +
                              serialDefinitions(Ctx, Copy, {}, threadRunCopying(Exported)) + "\n" +
                              At.NamespacesClose);
      continue;
    }
    std::vector<SourceEdit> BodyEdits = CopyEdits;
    std::vector<SourceEdit> Calls = Shadows.callEdits(*Child);
    BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    Result.Edits.insert(Copy.Whole.End,
                        serialDefinitions(Ctx, Copy, BodyEdits, threadRunCopying(Exported)));
  }
  for (const auto &[Child, Run] : BlockRun) {
    std::vector<SourceEdit> BodyEdits = CopyEdits;
    std::vector<SourceEdit> Calls = Shadows.callEdits(*Child);
    BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    Result.Edits.insert(Run.Copy.Whole.End, blockRunDefinitions(Ctx, Run, BodyEdits));
  }
  for (const auto &[Child, Copy] : GridRecords)
    Result.Edits.insert(Copy.Whole.End, gridRecordDefinition(Copy));
  // A cooperative kernel cannot call the device runtime: in the persistent
  // grid's copies, where nothing launches, an error query is cudaSuccess
  // (CopyEdits already say so when every launch of the file is removed).
  // Streams that only the recorded launches used are neither created nor
  // destroyed there.
  std::vector<SourceEdit> PersistentEdits = CopyEdits;
  DeviceRuntimeUse Use = deviceRuntimeUse(Ctx);
  if (!Persistent.empty() && !(AllRemoved && DeviceSites > 0))
    PersistentEdits.insert(PersistentEdits.end(), Use.ErrorQueries.begin(), Use.ErrorQueries.end());
  for (const PersistentParent &P : Persistent) {
    std::vector<SourceEdit> GridEdits = PersistentEdits;
    std::set<const DeviceRuntimeUse::StreamLifetimeCall *> Streams;
    for (const PersistentChild &C : P.Children)
      for (const DeviceRuntimeUse::StreamLifetimeCall *Call :
           recordedStreamCalls(Use, Launches, *C.Site))
        if (Streams.insert(Call).second)
          GridEdits.push_back(Call->ToSuccess);
    // The original parent's own launches became T4's code, which CopyEdits
    // does not hold: the twin records them instead.
    std::vector<SourceEdit> BodyEdits = GridEdits;
    std::vector<SourceEdit> Calls = Shadows.callEdits(*P.Site->Parent);
    BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    BodyEdits.insert(BodyEdits.end(), P.Recordings.begin(), P.Recordings.end());
    std::vector<RecursiveChildCopies> Recursive;
    std::vector<PersistentChildCode> Children;
    for (const PersistentChild &C : P.Children) {
      std::string Thread = C.Naming.Scope + generated::removal::ThreadPrefix + C.Copy->Name;
      if (C.Recursive) {
        Recursive.push_back(recursiveChildCopies(Ctx, Launches, Shadows, GridEdits, P, C));
        Thread = Recursive.back().ThreadCallee;
      }
      Children.push_back({C.Copy, C.Naming, Thread, C.WholeBlocks});
    }
    std::string Definitions = persistentDefinitions(Ctx, *P.Launch->Parent, Children, BodyEdits,
                                                    P.Units, Recursive, P.wholeBlocks());
    if (!Use.MacroErrorQueries.empty()) {
      auto [Define, Undefine] = errorQueryMacros();
      Definitions = "\n\n" + Define + Definitions + Undefine;
    }
    Result.Edits.insert(P.Launch->Parent->Whole.End, Definitions);
    for (const LaunchSite *Host : hostLaunchesOf(Launches, *P.Site->Parent)) {
      LaunchText HostText = llvm::cantFail(readLaunchText(Ctx, *Host));
      Result.Edits.replace(
          HostText.Statement.Begin, HostText.Statement.End - HostText.Statement.Begin,
          persistentHostLaunch(HostText, persistentHostNames(Ctx, *Host), *P.Launch->Parent,
                               persistentWhen(Ctx, Launches, P), P.recursive(), P.wholeBlocks()));
    }
  }
  for (const auto &[Parent, Children] : ParentLists) {
    const KernelCopy &Body = *ParentBodies.at(Parent);
    Result.Edits.insert(Body.Body.Begin + 1, parentOpening(Children));
    Result.Edits.insert(Body.Body.End - 1, parentClosing(Children));
  }
  // The guard is for the code that replaces a launch; copies that only other
  // files call do not use it.
  bool RemovedHere = std::any_of(Decisions.begin(), Decisions.end(),
                                 [](const SiteDecision &D) { return D.Version.has_value(); });
  std::string Preamble;
  if (RemovedHere)
    Preamble = "// launchopt: the configuration check of removed launches.\n"
               "#include <launchopt/removal_guard.cuh>\n";
  if (!Persistent.empty())
    Preamble += persistentPreamble();
  if (!BlockRun.empty())
    Preamble += blockRunPreamble(Options.DefaultSlots);
  else if (Persistent.empty() && !Preamble.empty())
    Preamble += "\n";
  if (!Preamble.empty())
    Result.Edits.insert(0, Preamble);
  includeSerialRuntime(Result.Edits);
  return Result;
}

} // namespace launchopt

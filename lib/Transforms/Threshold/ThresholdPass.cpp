#include "ThresholdPass.h"

#include "Transforms/Common/OrderGuard.h"

#include "Analysis/ChildIndependence.h"
#include "Analysis/LaunchOrder.h"
#include "Support/GeneratedNames.h"
#include "Transforms/Common/LaunchAcceptance.h"
#include "Transforms/Common/LaunchBinding.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include "Transforms/Common/ShadowCallees.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <optional>
#include <set>

namespace launchopt {

namespace {

// The replacement of the launch statement (paper Fig. 3 lines 21-26).
// Guarded: serialized only while the thread's order flag is clear;
// SetsFlag: the launch sets it (OrderGuard.h).
std::string thresholdedLaunch(clang::ASTContext &Ctx, const LaunchSite &Site, const LaunchText &L,
                              LaunchRemark &Remark, const std::string &SerialCallee, bool InCycle,
                              bool Guarded, bool SetsFlag) {
  BoundLaunch B = bindLaunch(Ctx, Site, L);
  std::string Launch = L.Callee + "<<<" + B.GridVar + ", " + B.BlockVar + L.trailingConfig() +
                       ">>>(" + L.Arguments + ");";
  std::string Serial = SerialCallee + "(" + L.argumentsThen() + B.GridVar + ", " + B.BlockVar +
                       (InCycle ? ", " + generated::threshold::SerialDepth + " + 1" : "") + ");";
  std::string Launched = B.ThreadsVar + " >= LAUNCHOPT_THRESHOLD";
  if (!B.FitsVar.empty())
    Launched += " || !" + B.FitsVar;
  const std::string &Indent = L.Indent;
  if (InCycle)
    Launched += " ||\n" + Indent + "      " + generated::threshold::SerialDepth +
                " >= LAUNCHOPT_SERIAL_DEPTH";
  if (Guarded)
    Launched += " || " + orderFlag();
  std::string Out = "{ // launchopt: thresholded launch of '" + Site.ChildName + "'\n";
  Out += boundDeclarations(B, Indent);
  if (SetsFlag) {
    Out += Indent + "  if (" + Launched + ") {\n";
    Out += Indent + "    " + Launch + "\n";
    Out += Indent + "    " + orderFlag() + " = true;\n";
    Out += Indent + "  } else\n";
  } else {
    Out += Indent + "  if (" + Launched + ")\n";
    Out += Indent + "    " + Launch + "\n";
    Out += Indent + "  else\n";
  }
  Out += Indent + "    " + Serial + "\n";
  Out += Indent + "}";
  Remark.Parameters["threads"] = B.Recovered;
  return Out;
}

// Why a launch cannot be thresholded whatever its text; success when
// nothing in the launch, its parent or its child stands in the way (the
// order of a stream is kept by the order guard, planned once every launch
// is read).
llvm::Error refusalOf(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                      const LaunchSite &Site, ShadowCallees &Shadows) {
  if (!Site.DeviceSide)
    return refusal("host-side launch: thresholding applies to launches from device code");
  // A __host__ __device__ parent is compiled for the host too, where the
  // __device__ serial copy cannot be called.
  if (Site.Parent->hasAttr<clang::CUDAHostAttr>())
    return refusal("the parent is a __host__ __device__ function; the serial copy is device-only");
  // A child of another file was checked there (acceptChildOfOtherFiles).
  if (!Site.Child && !acceptedExternalChild(Launches, Site))
    return refusal(Site.UnresolvedReason);
  if (Site.Child) {
    if (llvm::Error Blocker = serialCopyBlocker(Launches.ChildFeatures.at(Site.Child)))
      return Blocker;
    if (llvm::Error Unshadowable = Shadows.require(*Site.Child))
      return Unshadowable;
    if (llvm::Error InHeader =
            headerCopyBlocker(*Site.Child, Launches.ChildFeatures.at(Site.Child)))
      return InHeader;
  }
  if (Site.StreamKind == LaunchStream::TailLaunch)
    return refusal("the child is tail-launched: it must run after the whole parent grid");
  return llvm::Error::success();
}

// Serial copies are built last, from the child bodies as this pass edited
// them: a child's own launches are thresholded in its serial copy too.
// A child defined in an included header (InHeader) gets its copy after the
// #include, written from the header's text with none of this file's edits.
void insertSerialCopies(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                        const std::map<const clang::FunctionDecl *, KernelCopy> &Serialized,
                        const std::map<const clang::FunctionDecl *, IncludedPlacement> &InHeader,
                        ShadowCallees &Shadows, PassResult &Result) {
  std::vector<SourceEdit> LaunchEdits = Result.Edits.edits();
  std::set<const clang::FunctionDecl *> Children;
  for (const auto &[Child, Copy] : Serialized)
    Children.insert(Child);
  // Functions the copies call that read the built-ins get their own copies.
  Shadows.emit(Result.Edits, LaunchEdits, Children);
  for (const auto &[Child, Copy] : Serialized) {
    std::vector<SourceEdit> BodyEdits = LaunchEdits;
    std::vector<SourceEdit> Calls = Shadows.callEdits(*Child);
    BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    SerialCopyOptions Copying;
    Copying.InCycle = inLaunchCycle(Launches, Child);
    Copying.Exported = Launches.ExportedChildren.count(Child);
    if (auto Header = InHeader.find(Child); Header != InHeader.end()) {
      const IncludedPlacement &At = Header->second;
      Result.Edits.insert(At.Offset, At.NamespacesOpen + serialDefinitions(Ctx, Copy, {}, Copying) +
                                         "\n" + At.NamespacesClose);
      continue;
    }
    Result.Edits.insert(Copy.Whole.End, serialDefinitions(Ctx, Copy, BodyEdits, Copying));
  }
}

// A launch as the first reading left it: taken (Launch) or refused (the
// remark's message).
struct Candidate {
  LaunchRemark Remark;
  const ExternalChild *External = nullptr;
  std::optional<AcceptedLaunch> Launch;
  Independence Proof; // for a launch that may follow others into its stream
};

} // namespace

PassResult ThresholdPass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  // The children that get a serial copy, as read when their launch was taken.
  std::map<const clang::FunctionDecl *, KernelCopy> Serialized;
  std::set<std::pair<unsigned, const clang::FunctionDecl *>> Prototypes;
  // A launch of a child of another file needs the macro without a copy here.
  bool RewroteExternalLaunch = false;
  ShadowCallees Shadows(Ctx);
  AcceptanceSteps Steps{generated::threshold::SerialPrefix};
  Steps.ChildInIncludedFile = true;
  std::map<const clang::FunctionDecl *, IncludedPlacement> InHeader;
  bool AnyInCycle = false;

  // Every launch is read first: whether a launch that may follow others
  // into its stream can be guarded depends on which of them are taken.
  std::vector<Candidate> Candidates;
  std::set<unsigned> Taken, NeedGuard;
  for (unsigned I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    Candidate C{remarkFor(Site, "threshold"), acceptedExternalChild(Launches, Site), {}, {}};
    llvm::Error Refusal = refusalOf(Ctx, Launches, Site, Shadows);
    llvm::Expected<AcceptedLaunch> Launch =
        C.External ? acceptExternalLaunch(Ctx, Site, *C.External, std::move(Refusal), Steps)
                   : acceptLaunch(Ctx, Site, std::move(Refusal), Steps);
    if (!Launch) {
      C.Remark.Message = llvm::toString(Launch.takeError());
    } else {
      C.Launch = std::move(*Launch);
      Taken.insert(I);
      if (mayReorderWithEarlierLaunch(Launches, Site)) {
        C.Proof = proveIndependentOfEarlierLaunches(Launches, Site);
        if (!C.Proof.Proved && !Options.AssumeIndependentChildren)
          NeedGuard.insert(I);
      }
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
    SerialCopyOptions Copying;
    Copying.InCycle = Site.Child && inLaunchCycle(Launches, Site.Child);
    AnyInCycle |= Copying.InCycle;
    bool Guarded = Guards.Guarded.count(I);
    Result.Edits.replace(Statement.Begin, Statement.End - Statement.Begin,
                         thresholdedLaunch(Ctx, Site, Launch->Text, Remark, Launch->Callee,
                                           Copying.InCycle, Guarded, Guards.Setters.count(I)));
    const clang::FunctionDecl *Child = External ? External->Declaration : Site.Child;
    // The copy of a child of another file, or of one that other files call,
    // has external linkage.
    Copying.Exported = External || Launches.ExportedChildren.count(Site.Child);
    if (Launch->NeedsPrototype && Prototypes.insert({Launch->ParentStart, Child}).second)
      insertPrototype(Result.Edits, *Launch, serialPrototype(Launch->Child, Copying) + "\n");
    RewroteExternalLaunch |= External != nullptr;
    if (External)
      Remark.Parameters["defined-in"] = External->DefiningFile;
    else
      Serialized.emplace(Site.Child, Launch->Child);
    if (!External && Launch->ChildInHeader)
      InHeader.emplace(Site.Child, *Launch->ChildInHeader);
    Remark.Applied = true;
    Remark.Parameters["serial-function"] = serialNameFor(Launch->Child.Name);
    if (std::optional<std::string> Pooling = lanePooling(Launch->Child))
      Remark.Parameters["serial-pooling"] = *Pooling;
    if (std::optional<std::string> Combined = serialAtomics(Launch->Child))
      Remark.Parameters["serial-atomics"] = *Combined;
    noteStreamOrder(Remark, C.Proof, Guarded, mayReorderWithEarlierLaunch(Launches, Site));
    Result.Remarks.push_back(Remark);
  }

  // Children that other files launch get their copies here, launched here
  // or not; acceptChildOfOtherFiles took them.
  addExportedChildren(Ctx, Launches, Shadows, Serialized);
  insertSerialCopies(Ctx, Launches, Serialized, InHeader, Shadows, Result);
  // The rewritten launches read the macro, and so may the copies.
  if (!Serialized.empty() || RewroteExternalLaunch)
    Result.Edits.insert(
        0, "// launchopt: a device-side launch runs when its child has at least\n"
           "// LAUNCHOPT_THRESHOLD threads; smaller children run in the parent thread\n"
           "// (the report's serial-pooling says where the lanes of a warp share their\n"
           "// children's threads). Override with -DLAUNCHOPT_THRESHOLD=<threads>.\n"
           "#ifndef LAUNCHOPT_THRESHOLD\n#define LAUNCHOPT_THRESHOLD " +
               std::to_string(Options.DefaultThreshold) + "\n#endif\n\n" +
               (AnyInCycle ? serialDepthDefinitions() : ""));
  includeSerialRuntime(Result.Edits);
  return Result;
}

llvm::Error ThresholdPass::acceptChildOfOtherFiles(clang::ASTContext &Ctx,
                                                   const LaunchAnalysis &Launches,
                                                   const clang::FunctionDecl &Child) const {
  if (llvm::Error E = exportableChild(Child))
    return E;
  if (llvm::Error Blocker = serialCopyBlocker(featuresOf(Launches, Child)))
    return Blocker;
  // The launching file cannot see the launch cycle that gives the copies a
  // depth parameter, so its declarations would not match them.
  if (inLaunchCycle(Launches, &Child))
    return refusal("the child launches itself (its serial copy is bounded by a depth that "
                   "other files cannot declare)");
  return copiesForOtherFilesBlocker(Ctx, Child);
}

} // namespace launchopt

#include "CoarsenPass.h"

#include "Analysis/VariableWrites.h"
#include "Support/GeneratedNames.h"
#include "Transforms/Common/AtomicSlots.h"
#include "Transforms/Common/LaunchAcceptance.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include "Transforms/Common/ShadowCallees.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <set>

namespace launchopt {

namespace {

using generated::coarsen::BlockLoopVariables;
using generated::coarsen::CoarsenedPrefix;
using generated::coarsen::OriginalGrid;

class ReturnFinder : public clang::RecursiveASTVisitor<ReturnFinder> {
public:
  bool Found = false;
  bool VisitReturnStmt(clang::ReturnStmt *) {
    Found = true;
    return false;
  }
  bool TraverseLambdaExpr(clang::LambdaExpr *) { return true; }
};

bool returnsEarly(const clang::FunctionDecl &Kernel) {
  ReturnFinder Finder;
  Finder.TraverseStmt(Kernel.getBody());
  return Finder.Found;
}

// Why the child's blocks cannot be run one after another by one block;
// success when they can.
llvm::Error coarseningBlocker(const clang::FunctionDecl &Child, const KernelFeatures &F) {
  // A thread that returns early would start the next original block while
  // the others wait at a barrier of the previous one.
  if (!F.Barriers.empty() && returnsEarly(Child))
    return refusal("child returns early and uses " + *F.Barriers.begin());
  return llvm::Error::success();
}

// Whether the child's body can sit inside the coarsening loop as written:
// no return (it would leave the loop) and no parameter written (the next
// original block must see the arguments as launched). Inline, a launch in
// the body stays directly in a kernel, where aggregation can reach it.
bool bodyFitsInLoop(const clang::FunctionDecl &Kernel) {
  if (returnsEarly(Kernel))
    return false;
  for (const clang::ParmVarDecl *P : Kernel.parameters())
    if (isWrittenIn(&Kernel, P))
      return false;
  return true;
}

// Whether the kernel launches from its own body (not through a function it calls).
bool launchesItself(const LaunchAnalysis &Launches, const clang::FunctionDecl &Kernel) {
  for (const LaunchSite &Site : Launches.Sites)
    if (Site.DeviceSide && Site.Parent == &Kernel)
      return true;
  return false;
}

// `__global__ void <coarsened child>(<child's parameters>, const dim3 <original grid>)`
std::string coarsenedSignature(const KernelCopy &K) {
  return K.TemplateHeader + "__global__ void " + CoarsenedPrefix + K.Name + "(" +
         K.parameters(true) + "const dim3 " + OriginalGrid + ")";
}

// The loops over the original blocks a coarsened block runs, z outermost,
// each indented two more than the one around it:
//   for (unsigned bz = blockIdx.z; bz < originalGrid.z; bz += gridDim.z)
// The loop variables are spelled in one place because the launch analysis
// recognises these loops in the output.
std::string originalBlockLoops() {
  const char *const Axes[3] = {"x", "y", "z"};
  std::string S;
  for (int Axis = 2; Axis >= 0; --Axis) {
    const std::string &B = BlockLoopVariables[Axis];
    std::string D = Axes[Axis];
    S += std::string(2 * (3 - Axis), ' ') + "for (unsigned " + B + " = blockIdx." + D + "; " + B +
         " < " + OriginalGrid + "." + D + "; " + B + " += gridDim." + D + ")" +
         (Axis > 0 ? "\n" : "");
  }
  return S;
}

// `make_uint3(bx, by, bz)`: the original block the loops are at.
std::string originalBlockIndex() {
  return "make_uint3(" + BlockLoopVariables[0] + ", " + BlockLoopVariables[1] + ", " +
         BlockLoopVariables[2] + ")";
}

// The coarsened kernel with the child's body inside the loop: only blockIdx
// and gridDim change from one original block to the next.
std::string inlineCoarsenedKernel(const clang::ASTContext &Ctx, const KernelCopy &K,
                                  const std::vector<SourceEdit> &Edits, bool UsesSharedMemory) {
  std::string D = "\n\n// launchopt: '" + K.Name +
                  "' coarsened: each block runs the original blocks\n// blockIdx, blockIdx + "
                  "gridDim, ... of the original grid; in the loop, locals shadow\n// blockIdx and "
                  "gridDim with the original block's values.\n";
  D += coarsenedSignature(K) + "\n{\n" + atomicSlotDeclarations(K, "  ") + originalBlockLoops() +
       " {\n";
  D += "        { // one original block\n";
  D += "          const uint3 blockIdx = " + originalBlockIndex() + ";\n";
  D += "          const dim3 gridDim = " + OriginalGrid + ";\n";
  D += "          (void)blockIdx; (void)gridDim;\n";
  D += "          " + K.body(Ctx, withAtomicSlots(K, Edits, SlotsAreLocals)) + "\n        }\n";
  // As below: the next original block reuses this one's shared memory.
  if (UsesSharedMemory)
    D += "        __syncthreads();\n";
  D += "      }\n" + atomicSlotFlushes(K, "  ", /*Warp=*/true) + "}";
  return D;
}

// The coarsened kernel and the per-block function it loops over.
std::string coarsenedKernel(const clang::ASTContext &Ctx, const KernelCopy &K,
                            const std::vector<SourceEdit> &Edits, bool UsesSharedMemory) {
  std::string BlockName = generated::coarsen::BlockFunctionPrefix + K.Name;
  std::string D;
  // All four built-ins are passed in, so that a later pass that shadows them
  // (aggregation) reaches this function too.
  D += "\n\n// launchopt: one original block of '" + K.Name +
       "' inside a coarsened block; the locals\n// below shadow the built-in index variables "
       "with the original block's values.\n";
  D += K.TemplateHeader + "static __device__ void " + BlockName + "(" + K.parameters(true) +
       passedBuiltinParameters() + atomicSlotParameters(K) + ")\n{\n";
  D += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  D += "  " + K.body(Ctx, withAtomicSlots(K, Edits, SlotsArePointers)) + "\n}\n\n";
  D += "// launchopt: '" + K.Name +
       "' coarsened: each block runs the original blocks\n"
       "// blockIdx, blockIdx + gridDim, ... of the original grid.\n";
  D += coarsenedSignature(K) + "\n{\n" + atomicSlotDeclarations(K, "  ") + originalBlockLoops();
  std::string Call = BlockName + K.TemplateArgs + "(" + K.arguments(true) + originalBlockIndex() +
                     ", threadIdx,\n            blockDim, " + OriginalGrid +
                     atomicSlotArguments(K) + ");\n";
  // The next original block reuses the shared memory of this one: a thread
  // that starts it early would overwrite what slower threads still read.
  // Every thread reaches the barrier: the loop bounds are the same for the
  // whole block, and an early return only leaves the per-block function.
  const std::string Flushes = atomicSlotFlushes(K, "  ", /*Warp=*/true);
  if (UsesSharedMemory)
    D += " {\n        " + Call + "        __syncthreads();\n      }\n" + Flushes + "}";
  else
    D += "\n        " + Call + Flushes + "}";
  return D;
}

std::string coarsenedPrototype(const KernelCopy &K) { return coarsenedSignature(K) + ";\n\n"; }

// Why a launch cannot be coarsened whatever its text; success when nothing
// in the launch or its child stands in the way.
llvm::Error refusalOf(const LaunchAnalysis &Launches, const LaunchSite &Site,
                      ShadowCallees &Shadows) {
  if (!Site.DeviceSide)
    return refusal("host-side launch: coarsening applies to launches from device code");
  // A child of another file was checked there (acceptChildOfOtherFiles).
  if (!Site.Child && !acceptedExternalChild(Launches, Site))
    return refusal(Site.UnresolvedReason);
  if (llvm::StringRef(Site.ChildName).starts_with(CoarsenedPrefix))
    return refusal("the child is already coarsened");
  if (!Site.Child)
    return llvm::Error::success();
  if (llvm::Error Blocker = coarseningBlocker(*Site.Child, Launches.ChildFeatures.at(Site.Child)))
    return Blocker;
  return Shadows.require(*Site.Child);
}

// The launch of the coarsened copy (Callee) over the original grid divided
// by LAUNCHOPT_CFACTOR in x; the original grid goes along as the last argument.
std::string coarsenedLaunch(const LaunchSite &Site, const LaunchText &L,
                            const std::string &Callee) {
  std::string Id = std::to_string(Site.Id);
  std::string Grid = generated::code("@cgrid") + Id, Coarse = generated::code("@coarse") + Id;
  std::string In = L.Indent + "  ";
  std::string Text = "{ // launchopt: coarsened launch of '" + Site.ChildName + "'\n";
  Text += In + "const dim3 " + Grid + " = " + L.Grid + ";\n";
  Text += In + "const dim3 " + Coarse + "((" + Grid + ".x + LAUNCHOPT_CFACTOR - 1) / " +
          "LAUNCHOPT_CFACTOR, " + Grid + ".y, " + Grid + ".z);\n";
  Text += In + Callee + "<<<" + Coarse + ", " + L.Block + L.trailingConfig() + ">>>(" +
          L.argumentsThen() + Grid + ");\n";
  Text += L.Indent + "}";
  return Text;
}

// Built last, from the child bodies as edited: a child's own launches are
// coarsened inside its coarsened copy too.
// A child of an included header (InHeader) gets its copy after the main
// file's #include, in its namespaces, written from the header's text.
void insertCoarsenedKernels(
    clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
    const std::map<const clang::FunctionDecl *, KernelCopy> &Coarsened,
    const std::map<const clang::FunctionDecl *, IncludedPlacement> &InHeader,
    ShadowCallees &Shadows, SourceEdits &Edits) {
  std::vector<SourceEdit> LaunchEdits = Edits.edits();
  std::set<const clang::FunctionDecl *> Children;
  for (const auto &[Child, Copy] : Coarsened)
    Children.insert(Child);
  // Functions the copies call that read the built-ins get their own copies.
  Shadows.emit(Edits, LaunchEdits, Children);
  for (const auto &[Child, Copy] : Coarsened) {
    std::vector<SourceEdit> BodyEdits = LaunchEdits;
    std::vector<SourceEdit> Calls = Shadows.callEdits(*Child);
    BodyEdits.insert(BodyEdits.end(), Calls.begin(), Calls.end());
    bool Shared = Launches.ChildFeatures.at(Child).UsesSharedMemory;
    auto Header = InHeader.find(Child);
    // A header's body takes none of the main file's edits (other offsets).
    if (Header != InHeader.end())
      BodyEdits.clear();
    std::string Kernel = bodyFitsInLoop(*Child)
                             ? inlineCoarsenedKernel(Ctx, Copy, BodyEdits, Shared)
                             : coarsenedKernel(Ctx, Copy, BodyEdits, Shared);
    if (Header == InHeader.end()) {
      Edits.insert(Copy.Whole.End, Kernel);
      continue;
    }
    const IncludedPlacement &At = Header->second;
    Edits.insert(At.Offset, At.NamespacesOpen + Kernel + "\n" + At.NamespacesClose);
  }
}

} // namespace

PassResult CoarsenPass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  std::map<const clang::FunctionDecl *, KernelCopy> Coarsened;
  std::set<std::pair<unsigned, const clang::FunctionDecl *>> Prototypes;
  // A launch of a child of another file needs the macro without a copy here.
  bool RewroteExternalLaunch = false;
  ShadowCallees Shadows(Ctx);
  AcceptanceSteps Steps{CoarsenedPrefix};
  Steps.ChildInIncludedFile = true;
  std::map<const clang::FunctionDecl *, IncludedPlacement> InHeader;

  for (const LaunchSite &Site : Launches.Sites) {
    LaunchRemark Remark = remarkFor(Site, "coarsen");
    const ExternalChild *External = acceptedExternalChild(Launches, Site);
    llvm::Error Refusal = refusalOf(Launches, Site, Shadows);
    llvm::Expected<AcceptedLaunch> Launch =
        External ? acceptExternalLaunch(Ctx, Site, *External, std::move(Refusal), Steps)
                 : acceptLaunch(Ctx, Site, std::move(Refusal), Steps);
    // The copy of a header's kernel is written from the header's text,
    // which takes none of the main file's edits.
    if (Launch && Launch->ChildInHeader && !Shadows.callEdits(*Site.Child).empty())
      Launch = llvm::Expected<AcceptedLaunch>(
          refusal("the child kernel, defined in an included header, calls functions that read the "
                  "built-in index variables (or queries cooperative groups): its copy after the "
                  "#include cannot pass them the original launch's values"));
    if (Launch && !External && Options.AggregationFollows &&
        launchesItself(Launches, *Site.Child) && !bodyFitsInLoop(*Site.Child))
      Launch = llvm::Expected<AcceptedLaunch>(refusal(
          "the child launches kernels and returns early or writes a parameter: coarsened, its "
          "body would run in a per-block function, where --aggregate cannot reach its launches "
          "(they would stay one launch each, unguarded against the pending-launch limit)"));
    if (!Launch) {
      Remark.Message = llvm::toString(Launch.takeError());
      Result.Remarks.push_back(Remark);
      continue;
    }
    const LaunchText &L = Launch->Text;
    Result.Edits.replace(L.Statement.Begin, L.Statement.End - L.Statement.Begin,
                         coarsenedLaunch(Site, L, Launch->Callee));
    const clang::FunctionDecl *Child = External ? External->Declaration : Site.Child;
    RewroteExternalLaunch |= External != nullptr;
    if (External)
      Remark.Parameters["defined-in"] = External->DefiningFile;
    else
      Coarsened.emplace(Site.Child, Launch->Child);
    if (!External && Launch->ChildInHeader)
      InHeader.emplace(Site.Child, *Launch->ChildInHeader);
    // A __global__ kernel has external linkage: the declaration serves the
    // parents of other files as it does those written before the child.
    if (Launch->NeedsPrototype && Prototypes.insert({Launch->ParentStart, Child}).second)
      insertPrototype(Result.Edits, *Launch, coarsenedPrototype(Launch->Child));
    Remark.Applied = true;
    Remark.Parameters["coarsened-kernel"] = CoarsenedPrefix + Site.ChildName;
    // --auto reads it: a per-block function takes the child's own launches
    // out of aggregation's reach.
    if (!External)
      Remark.Parameters["loop-body"] = bodyFitsInLoop(*Site.Child)
                                           ? "inline (the child's launches stay in the kernel)"
                                           : "a per-block function (the child returns early or "
                                             "writes a parameter)";
    Remark.Parameters["factor"] =
        "LAUNCHOPT_CFACTOR (default " + std::to_string(Options.DefaultFactor) + ")";
    if (std::optional<std::string> Combined = combinedAtomics(Launch->Child))
      Remark.Parameters["combined-atomics"] =
          *Combined + ": combined over each thread's original blocks, then across its warp";
    Result.Remarks.push_back(Remark);
  }

  // Children that other files launch get their coarsened copies here,
  // launched here or not; acceptChildOfOtherFiles took them.
  addExportedChildren(Ctx, Launches, Shadows, Coarsened);
  insertCoarsenedKernels(Ctx, Launches, Coarsened, InHeader, Shadows, Result.Edits);
  // The rewritten launches read the macro, and so may the copies.
  if (!Coarsened.empty() || RewroteExternalLaunch)
    Result.Edits.insert(0, "// launchopt: each block of a coarsened child runs LAUNCHOPT_CFACTOR\n"
                           "// original blocks. Override with -DLAUNCHOPT_CFACTOR=<blocks>.\n"
                           "#ifndef LAUNCHOPT_CFACTOR\n#define LAUNCHOPT_CFACTOR " +
                               std::to_string(Options.DefaultFactor) + "\n#endif\n\n");
  includeSerialRuntime(Result.Edits);
  return Result;
}

llvm::Error CoarsenPass::acceptChildOfOtherFiles(clang::ASTContext &Ctx,
                                                 const LaunchAnalysis &Launches,
                                                 const clang::FunctionDecl &Child) const {
  if (llvm::Error E = exportableChild(Child))
    return E;
  if (llvm::StringRef(Child.getName()).starts_with(CoarsenedPrefix))
    return refusal("the child is already coarsened");
  if (llvm::Error Blocker = coarseningBlocker(Child, featuresOf(Launches, Child)))
    return Blocker;
  return copiesForOtherFilesBlocker(Ctx, Child);
}

} // namespace launchopt

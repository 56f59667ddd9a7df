#include "HostLaunch.h"

#include "ThreadPacking.h"
#include "Analysis/ConstantOperand.h"
#include "Support/GeneratedNames.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace launchopt {

using namespace generated::aggregate;

namespace {

std::string lineOf(const LaunchSite &Site) { return std::to_string(Site.Position.Line); }

// The first reference to a kernel that is not the name of one of its
// launches: its address taken (cudaLaunchKernel, a function pointer), whose
// launch launchopt cannot see.
class OtherReference : public clang::RecursiveASTVisitor<OtherReference> {
public:
  OtherReference(const clang::FunctionDecl &Kernel, const LaunchAnalysis &Launches)
      : Kernel(Kernel.getCanonicalDecl()) {
    for (const LaunchSite &Site : Launches.Sites)
      if (const clang::Expr *Callee = launchedKernel(*Site.Call))
        LaunchNames.insert(Callee->IgnoreParenImpCasts());
  }
  bool TraverseVarDecl(clang::VarDecl *Var) {
    // A recovered launch's reference names its kernel to launch it, no more.
    return isRecoveredLaunchReference(*Var) || RecursiveASTVisitor::TraverseVarDecl(Var);
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    auto *F = llvm::dyn_cast<clang::FunctionDecl>(Ref->getDecl());
    if (!Found && F && F->getCanonicalDecl() == Kernel && !LaunchNames.count(Ref))
      Found = Ref;
    return true;
  }
  const clang::DeclRefExpr *Found = nullptr;

private:
  const clang::FunctionDecl *Kernel;
  std::set<const clang::Expr *> LaunchNames;
};

// Whether the functions written beside Kernel are found by their plain
// names from Function: Kernel's namespace is Function's, or inside it
// through anonymous and inline namespaces only.
bool visibleFrom(const clang::FunctionDecl &Kernel, const clang::FunctionDecl &Function) {
  const clang::DeclContext *Target = Function.getEnclosingNamespaceContext();
  for (const clang::DeclContext *C = Kernel.getEnclosingNamespaceContext(); C; C = C->getParent()) {
    if (C->Equals(Target))
      return true;
    auto *Namespace = llvm::dyn_cast<clang::NamespaceDecl>(C);
    if (!Namespace || !(Namespace->isAnonymousNamespace() || Namespace->isInline()))
      return false;
  }
  return false;
}

// Why the host cannot launch the aggregated grids of a parent's launches;
// success when nothing stands in the way.
llvm::Error parentRefusal(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                          const LaunchSite &Site, bool TailLaunches) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const LaunchSite &Other : Launches.Sites)
    if (Other.DeviceSide && Other.Child &&
        Other.Child->getCanonicalDecl() == Site.Parent->getCanonicalDecl())
      return refusal("the parent is also launched from device code (line " + lineOf(Other) +
                     "): the host cannot launch its children's aggregated grid after it");
  if (TailLaunches)
    return refusal("the parent tail-launches work of its own, which runs before a grid the host "
                   "launches after the parent and may need the children's results");
  std::vector<const LaunchSite *> Hosts = hostLaunchesOf(Launches, *Site.Parent);
  if (Hosts.empty())
    return refusal("the parent is not launched from the host in this file: the launch its "
                   "children's aggregated grid must follow cannot be rewritten");
  OtherReference References(*Site.Parent, Launches);
  References.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (References.Found)
    return refusal("the parent is referenced at line " +
                   std::to_string(SM.getPresumedLineNumber(References.Found->getBeginLoc())) +
                   " other than by a <<<>>> launch (a cudaLaunchKernel call or a kernel "
                   "pointer, say): the host launches after which its children's aggregated "
                   "grid must run cannot all be rewritten");
  clang::SourceLocation DefinitionsEnd = Site.Parent->getEndLoc();
  if (SM.isBeforeInTranslationUnit(DefinitionsEnd, Site.Child->getEndLoc()))
    DefinitionsEnd = Site.Child->getEndLoc();
  for (const LaunchSite *Host : Hosts) {
    llvm::Expected<LaunchText> Text = readLaunchText(Ctx, *Host);
    if (!Text)
      return refusal("the parent's host launch at line " + lineOf(*Host) +
                     " cannot be rewritten: " + llvm::toString(Text.takeError()));
    if (llvm::Expected<std::string> Name =
            prefixedCallee(Ctx, *Host, ArmPrefix, /*SpellDeduced=*/true);
        !Name)
      return refusal("the parent's host launch at line " + lineOf(*Host) +
                     " cannot be rewritten: " + llvm::toString(Name.takeError()));
    if (!SM.isBeforeInTranslationUnit(DefinitionsEnd, Host->Call->getBeginLoc()))
      return refusal("the parent's host launch at line " + lineOf(*Host) +
                     " comes before the end of the parent and the child, after which the host "
                     "launch of the aggregated grid is defined");
    if (Host->Parent && !visibleFrom(*Site.Parent, *Host->Parent) &&
        Text->Callee.find("::") == std::string::npos)
      return refusal("the parent's host launch at line " + lineOf(*Host) +
                     " names it unqualified from another namespace");
  }
  // The launcher goes after the later of the parent and the child, and the
  // host launch names it as it names the parent.
  if (!Site.Child->getEnclosingNamespaceContext()->Equals(
          Site.Parent->getEnclosingNamespaceContext()) &&
      SM.isBeforeInTranslationUnit(Site.Parent->getEndLoc(), Site.Child->getEndLoc()))
    return refusal("the child is in another namespace than the parent and defined after it");
  return llvm::Error::success();
}

// The kernels that tail-launch (all of them when a __device__ function does:
// which kernels reach it is not followed).
std::set<const clang::FunctionDecl *> tailLaunchers(const LaunchAnalysis &Launches, bool &All) {
  std::set<const clang::FunctionDecl *> Kernels;
  All = false;
  for (const LaunchSite &Site : Launches.Sites) {
    if (!Site.DeviceSide || Site.StreamKind != LaunchStream::TailLaunch)
      continue;
    if (Site.Parent->hasAttr<clang::CUDAGlobalAttr>())
      Kernels.insert(Site.Parent);
    else
      All = true;
  }
  return Kernels;
}

// The aggregated grid's block of a child of whole blocks: the largest
// constant block of its sites (a site whose block or shared memory is not a
// constant is refused). A child with barriers needs one block size at every
// site, since a thread past its record's block skips the body.
void shapeWholeBlocks(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                      const clang::FunctionDecl *Child, const std::vector<size_t> &Sites,
                      SiteDecisions &D) {
  uint64_t Threads = 0, Shared = 0;
  std::set<uint64_t> Sizes;
  std::vector<size_t> Taken;
  for (size_t I : Sites) {
    const LaunchSite &Site = Launches.Sites[I];
    std::optional<uint64_t> Block = constantOperand(Ctx, Site.Block);
    std::optional<uint64_t> Bytes =
        Site.SharedMemory ? constantOperand(Ctx, Site.SharedMemory) : std::optional<uint64_t>(0);
    if (!Block || *Block == 0 || *Block > 1024)
      D.Refusals[I] = "the child's block size at line " + lineOf(Site) +
                      " is not a constant: the host cannot size the aggregated grid's blocks "
                      "(--aggregate=threads:host packs the threads of a child without barriers)";
    else if (!Bytes)
      D.Refusals[I] = "the child's dynamic shared memory at line " + lineOf(Site) +
                      " is not a constant: the host cannot size the aggregated grid's blocks";
    if (!D.Refusals[I].empty())
      continue;
    Taken.push_back(I);
    Sizes.insert(*Block);
    Threads = std::max(Threads, *Block);
    Shared = std::max(Shared, *Bytes);
  }
  auto Features = Launches.ChildFeatures.find(Child);
  if (Sizes.size() > 1 && Features != Launches.ChildFeatures.end() &&
      !Features->second.Barriers.empty()) {
    for (size_t I : Taken)
      D.Refusals[I] = "the child synchronizes its blocks (" + *Features->second.Barriers.begin() +
                      ") and its sites launch blocks of different sizes: one aggregated block "
                      "size cannot serve them all";
    return;
  }
  if (!Taken.empty())
    D.HostBlocks[Child] = {std::to_string(Threads) + "u", std::to_string(Shared) + "u"};
}

// Launches of the same parent thread that stay on the device and may share
// the stream of an earlier site: they would run before its aggregated grid.
bool refuseOvertaken(const LaunchAnalysis &Launches, SiteDecisions &D) {
  bool Changed = false;
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    const LaunchSite &Site = Launches.Sites[I];
    if (!D.Refusals[I].empty() || !D.Candidates[I] ||
        Site.StreamKind == LaunchStream::FireAndForget)
      continue;
    for (size_t J = 0; J < Launches.Sites.size(); ++J) {
      const LaunchSite &Later = Launches.Sites[J];
      if (J == I || D.Refusals[J].empty() || !Later.DeviceSide || Later.Parent != Site.Parent ||
          Later.StreamKind == LaunchStream::FireAndForget || !mayShareStream(Site, Later))
        continue;
      if (!Site.InLoop && Later.Call->getBeginLoc() < Site.Call->getBeginLoc())
        continue;
      D.Refusals[I] = "the parent also launches '" + Later.ChildName + "' at line " +
                      lineOf(Later) +
                      ", which stays a device launch and may share this launch's stream: it "
                      "would run before the grid the host launches after the parent";
      Changed = true;
      break;
    }
  }
  return Changed;
}

} // namespace

void refuseHostLaunches(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                        const AggregateOptions &Options, SiteDecisions &D) {
  bool AllTailLaunch = false;
  std::set<const clang::FunctionDecl *> TailLaunching = tailLaunchers(Launches, AllTailLaunch);
  std::map<const clang::FunctionDecl *, std::vector<size_t>> SitesOfChild;
  for (size_t I = 0; I < Launches.Sites.size(); ++I) {
    if (!D.Refusals[I].empty())
      continue;
    const LaunchSite &Site = Launches.Sites[I];
    if (llvm::Error Why =
            parentRefusal(Ctx, Launches, Site, AllTailLaunch || TailLaunching.count(Site.Parent))) {
      D.Refusals[I] = llvm::toString(std::move(Why));
      continue;
    }
    SitesOfChild[Site.Child].push_back(I);
  }
  for (const auto &[Child, Sites] : SitesOfChild) {
    llvm::Error Blocker =
        Options.PackThreads ? threadPackingBlocker(Launches, *Child) : refusal("whole blocks");
    if (!Blocker)
      D.HostBlocks[Child] = {"LAUNCHOPT_PACKED_BLOCK", "0"};
    else {
      llvm::consumeError(std::move(Blocker));
      shapeWholeBlocks(Ctx, Launches, Child, Sites, D);
    }
  }
  while (refuseOvertaken(Launches, D)) {
  }
}

std::string hostOverflowFunction(const LaunchAnalysis &Launches, const clang::FunctionDecl &Child) {
  KernelFeatures F = featuresOf(Launches, Child);
  llvm::Error Blocker = serialCopyBlocker(F);
  bool Serial = !Blocker && F.LaunchedKernels.empty();
  llvm::consumeError(std::move(Blocker));
  return Serial ? HostSerialPrefix + Child.getNameAsString() : "";
}

std::string hostAggregatedKernel(const KernelCopy &Child, const UniformParameters &Uniform,
                                 bool PackThreads, bool WhenLarge) {
  const std::string &N = Child.Name;
  std::string S = "\n\n// launchopt: '" + N +
                  "' aggregated and launched by the host after its parent: the blocks\n"
                  "// of a grid of any size stride over the recorded " +
                  (PackThreads ? "child threads, packed densely;\n"
                                 "// each thread finds the launch it belongs to and its place "
                                 "in it.\n"
                               : "child blocks; each finds\n"
                                 "// the launch it belongs to and runs as that launch's "
                                 "original block.\n");
  S += Child.TemplateHeader + "__global__ void " +
       (WhenLarge ? HostAggregatedPrefix : AggregatedPrefix) + N +
       generated::code("(const launchopt::HostAggregation *@host)\n{\n"
                       "  launchopt::HostRecords @h;\n  if (!launchopt::") +
       (PackThreads ? "hostPackedRecords" : "hostRecords") +
       generated::code("(@host, &@h))\n    return;\n"
                       "  for (unsigned long long @unit = blockIdx.x; @unit < @h.units; @unit "
                       "+= gridDim.x) {\n"
                       "    launchopt::OriginalThread @t;\n    if (launchopt::") +
       (PackThreads ? generated::code("findHostPackedOriginal(@h, @unit, &@t)")
                    : generated::code("findHostOriginal(@h, unsigned(@unit), &@t)")) +
       ") {\n";
  // generated::aggregate::AggregatedLaunch names the scope's records in the
  // argument references, as in the device-launched kernel.
  std::string Args;
  bool AnyPerLaunch = false;
  for (size_t I = 0; I < Child.ParamNames.size(); ++I)
    AnyPerLaunch |= !(I < Uniform.size() && Uniform[I]);
  std::string ArgsType = argsStructName(N) + Child.TemplateArgs;
  if (AnyPerLaunch)
    S += "      const " + ArgsType + " &" + ArgumentsReference + " = *static_cast<const " +
         ArgsType + generated::code(" *>(@t.arguments);\n");
  if (anyUniform(Uniform)) {
    std::string UType = uniformStructName(N) + Child.TemplateArgs;
    S += "      const " + UType + " &" + UniformArgumentsReference + " = *static_cast<const " +
         UType + generated::code(" *>(@t.uniformArguments);\n");
  }
  std::vector<std::string> Fields;
  for (size_t I = 0; I < Child.ParamNames.size(); ++I)
    Fields.push_back(
        (I < Uniform.size() && Uniform[I] ? UniformArgumentsReference : ArgumentsReference) + "." +
        Child.ParamNames[I]);
  std::string FieldList = llvm::join(Fields, ", ");
  S += "      " + PartPrefix + N + Child.TemplateArgs + "(" +
       (FieldList.empty() ? "" : FieldList + ", ") +
       generated::code("@t.blockIdx, @t.threadIdx,\n          @t.blockDim, @t.gridDim);\n"
                       "    }\n");
  // The next child block may reuse the shared memory this one still reads.
  if (!PackThreads)
    S += "    __syncthreads();\n";
  S += "  }\n}";
  return S;
}

std::string hostLaunchFunctions(const KernelCopy &Parent,
                                const std::vector<AggregatedSite> &Sites) {
  const std::string &P = Parent.Name;
  std::string S = "\n\n// launchopt: run by the host before each launch of '" + P +
                  "', in its stream: publishes and\n// resets the record pool, and opens "
                  "and arms the scopes of its aggregated\n// launches for the grid about to "
                  "start.\n" +
                  Parent.TemplateHeader + "static __global__ void " + ArmPrefix + P +
                  generated::code("(launchopt::PoolView @pool, dim3 @grid, dim3 @block)\n{\n"
                                  "  launchopt::publishPool(@pool);\n");
  for (const AggregatedSite &Site : Sites)
    S += "  launchopt::armHostAggregation(&" + Site.HostScope +
         generated::code(", launchopt::hostLaunchers(@grid, @block, ") +
         (Site.OneThreadPerBlock ? "true" : "false") + "), " + uniformBytes(Site) + ");\n";
  S += "}\n\n// launchopt: called by the host after each launch of '" + P +
       "', with its stream: launches\n// the aggregated grids of its children "
       "(host_aggregation.cuh says how they are sized).\n" +
       Parent.TemplateHeader + "static void " + HostLauncherPrefix + P +
       generated::code("(cudaStream_t @stream)\n{\n");
  for (const AggregatedSite &Site : Sites)
    S += "  launchopt::launchHostAggregated(" + Site.ChildScope +
         (Site.HostWhenLarge ? HostAggregatedPrefix : AggregatedPrefix) + Site.ChildName +
         Site.TemplateArgs + ", " + Site.HostScope + ", " + Site.HostBlockThreads + ", " +
         Site.HostSharedMemory + ", " + (Site.PackThreads ? "true" : "false") +
         generated::code(", @stream);\n");
  return S + "}";
}

void rewriteHostLaunches(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                         const std::set<const clang::FunctionDecl *> &Parents,
                         const std::map<std::string, ParentPoolDemand> &DemandOf, bool WhenLarge,
                         SourceEdits &Edits) {
  for (const clang::FunctionDecl *Parent : Parents)
    for (const LaunchSite *Host : hostLaunchesOf(Launches, *Parent)) {
      LaunchText L = llvm::cantFail(readLaunchText(Ctx, *Host));
      // Named as the launch names the parent (`ns::parent`), with the
      // template arguments of a template parent written out: the arming
      // kernel and the launcher have no arguments to deduce them from.
      std::string Arm = llvm::cantFail(prefixedCallee(Ctx, *Host, ArmPrefix, true));
      std::string Launcher = llvm::cantFail(prefixedCallee(Ctx, *Host, HostLauncherPrefix, true));
      std::string Pool = "launchopt::preparePool(" + HostGrid + ", " + HostBlock + ", " +
                         demandInitializer(DemandOf, Host->ChildName) + ")";
      std::string Arming = Arm + "<<<1, 1, 0, " + HostStream + ">>>(" + Pool + ", " + HostGrid +
                           ", " + HostBlock + ");";
      std::string Aggregated = Launcher + "(" + HostStream + ");";
      LaunchText Launched = L;
      if (WhenLarge) {
        // For a large grid, the parent's copy that records, between the
        // arming and the aggregated grids; else the parent as written.
        Launched.Callee = llvm::cantFail(prefixedCallee(Ctx, *Host, HostedParentPrefix, true));
        Arming = "if (launchopt::hostAggregates(" + HostGrid + ", " + HostBlock + ")) { " + Arming;
        // else the parent as written, whose multi-block scopes take the
        // pool the host resets, as --aggregate=multiblock's launches do.
        Aggregated += " } else { " + resetPoolCall(DemandOf, Host->ChildName) + " " + L.Callee +
                      "<<<" + HostGrid + ", " + HostBlock + ", " +
                      (L.SharedMemory.empty() ? "0" : L.SharedMemory) + ", " + HostStream + ">>>(" +
                      L.Arguments + "); }";
      }
      Edits.replace(L.Statement.Begin, L.Statement.End - L.Statement.Begin,
                    hostLaunchWithPool(Launched, Arming, Aggregated));
    }
}

} // namespace launchopt

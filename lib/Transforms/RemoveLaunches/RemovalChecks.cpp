#include "RemovalChecks.h"

#include "PersistentBlockChild.h"

#include "Analysis/ChildIndependence.h"
#include "Analysis/LaunchOrder.h"
#include "Analysis/LaunchPlacement.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/LaunchText.h"
#include "Transforms/Common/Refusal.h"
#include "Transforms/Common/SerialChildBuilder.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace launchopt {

namespace {

// `blockDim` or one of its components: never more than the parent block.
bool isParentBlockDim(const clang::Expr *Operand) {
  const clang::Expr *E = stripConstruction(writtenOperand(Operand));
  if (auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E))
    if (C->getNumArgs() == 1)
      E = stripConstruction(C->getArg(0));
  if (auto *Pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
    E = Pseudo->getSyntacticForm()->IgnoreParenImpCasts();
  if (auto *P = llvm::dyn_cast<clang::MSPropertyRefExpr>(E)) {
    const clang::DeclRefExpr *Base = builtinIndexBase(*P);
    return Base && Base->getDecl()->getName() == "blockDim";
  }
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
  return Ref && isBuiltinIndexVariable(Ref->getDecl()) && Ref->getDecl()->getName() == "blockDim";
}

// The smallest value Measure gives over every launch of the parent in the
// file, or nothing when one is unknown or the parent is not launched here.
template <typename MeasureFn>
std::optional<uint64_t> overParentLaunches(const LaunchAnalysis &Launches, const LaunchSite &Site,
                                           MeasureFn Measure, std::string &Where) {
  std::optional<uint64_t> Least;
  const clang::FunctionDecl *Parent = Site.Parent->getCanonicalDecl();
  for (const LaunchSite &Other : Launches.Sites) {
    if (!Other.Child || Other.Child->getCanonicalDecl() != Parent)
      continue;
    std::optional<uint64_t> Value = Measure(Other);
    if (!Value) {
      Where = Other.Position.File + ":" + std::to_string(Other.Position.Line);
      return std::nullopt;
    }
    Least = Least ? std::min(*Least, *Value) : *Value;
  }
  if (!Least)
    Where = "no launch of '" + Site.ParentName + "' in this file";
  return Least;
}

// A loop after the launch whose condition polls volatile or atomic memory:
// CDP2 has no device-side wait, so a parent that needs its child's result
// before it ends spins on a flag the child sets.
class WaitFinder : public clang::RecursiveASTVisitor<WaitFinder> {
public:
  WaitFinder(const clang::ASTContext &Ctx, const LaunchSite &Site) : Ctx(Ctx), Site(Site) {}
  bool VisitWhileStmt(clang::WhileStmt *S) { return check(S, S->getCond()); }
  bool VisitDoStmt(clang::DoStmt *S) { return check(S, S->getCond()); }
  bool VisitForStmt(clang::ForStmt *S) { return check(S, S->getCond()); }
  std::string Found;

private:
  class Polls : public clang::RecursiveASTVisitor<Polls> {
  public:
    bool VisitExpr(clang::Expr *E) {
      if (E->isGLValue() && E->getType().isVolatileQualified())
        Found = true;
      if (auto *Call = llvm::dyn_cast<clang::CallExpr>(E))
        if (const clang::FunctionDecl *Callee = Call->getDirectCallee())
          if (Callee->getName().starts_with("atomic"))
            Found = true;
      return true;
    }
    bool Found = false;
  };

  bool check(clang::Stmt *Loop, clang::Expr *Condition) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    if (!Condition || !Found.empty() ||
        !SM.isBeforeInTranslationUnit(Site.Call->getBeginLoc(), Loop->getBeginLoc()))
      return true;
    Polls P;
    P.TraverseStmt(Condition);
    if (P.Found)
      Found = "a loop at line " + std::to_string(SM.getPresumedLineNumber(Loop->getBeginLoc())) +
              " polls volatile memory";
    return true;
  }

  const clang::ASTContext &Ctx;
  const LaunchSite &Site;
};

// A function the child calls that synchronizes the block itself: T3 maps
// only the barriers written in the child's own body.
class BarrierCallees : public clang::RecursiveASTVisitor<BarrierCallees> {
public:
  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    const clang::FunctionDecl *Definition = nullptr;
    if (!Callee || !Found.empty() || Callee->getBuiltinID() || !Callee->hasBody(Definition))
      return true;
    if (!computeKernelFeatures(*Definition).Barriers.empty())
      Found = Callee->getNameAsString();
    return true;
  }
  std::string Found;
};

} // namespace

llvm::Error launchSiteRefusal(const LaunchSite &Site) {
  if (!Site.DeviceSide)
    return refusal("host-side launch: launch removal applies to launches from device code");
  if (Site.Parent->hasAttr<clang::CUDAHostAttr>())
    return refusal("the parent is a __host__ __device__ function; the code that replaces the "
                   "launch is device-only");
  if (Site.StreamKind == LaunchStream::TailLaunch)
    return refusal("the child is tail-launched: it must run after the whole parent grid");
  return llvm::Error::success();
}

llvm::Error removalRefusal(const LaunchSite &Site) {
  if (llvm::Error Common = launchSiteRefusal(Site))
    return Common;
  if (!Site.Child)
    return refusal(Site.UnresolvedReason);
  if (Site.Recursive)
    return refusal("the child reaches the parent again through launches (recursion): its "
                   "launches have no bound that a parent thread or block could run (T3/T4); "
                   "T1/T2 record them in a persistent grid where a kernel launches itself "
                   "(and other children, if any) or a child launches only itself");
  return llvm::Error::success();
}

bool childNeedsBlock(const KernelFeatures &F) {
  return !F.Barriers.empty() || F.UsesSharedMemory || !F.WarpPrimitives.empty();
}

llvm::Error threadRunChildRefusal(const KernelFeatures &Features) {
  if (llvm::Error Blocker = serialCopyBlocker(Features))
    return refusal("T4 runs the child's threads one after another in the parent thread: " +
                   llvm::toString(std::move(Blocker)));
  return llvm::Error::success();
}

llvm::Error threadRunRefusal(const LaunchAnalysis &Launches, const LaunchSite &Site,
                             ShadowCallees &Shadows) {
  if (llvm::Error Common = removalRefusal(Site))
    return Common;
  if (llvm::Error Blocker = threadRunChildRefusal(Launches.ChildFeatures.at(Site.Child)))
    return Blocker;
  if (llvm::Error InHeader = headerCopyBlocker(*Site.Child, Launches.ChildFeatures.at(Site.Child)))
    return InHeader;
  return Shadows.require(*Site.Child);
}

namespace {

// The parent block's list of a template child's records names them with the
// launch's template arguments: they must be known, and the same at every
// launch of the child in the parent.
llvm::Error blockRunTemplateRefusal(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                    const LaunchSite &Site) {
  if (!Site.Child->isTemplated())
    return llvm::Error::success();
  std::string Own = launchTemplateArguments(Ctx, Site);
  if (Own.empty())
    return refusal("the launch leaves the child's template arguments to deduction from "
                   "arguments whose types are not known before the parent is instantiated: "
                   "T3's records of its arguments cannot name them (write them out)");
  // The first launch in the parent sets the list's arguments.
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const LaunchSite &Other : Launches.Sites)
    if (&Other != &Site && Other.DeviceSide && Other.Parent == Site.Parent &&
        Other.Child == Site.Child &&
        SM.isBeforeInTranslationUnit(Other.Call->getBeginLoc(), Site.Call->getBeginLoc()) &&
        launchTemplateArguments(Ctx, Other) != Own)
      return refusal("the parent launches '" + Site.ChildName +
                     "' with other template arguments at line " +
                     std::to_string(Other.Position.Line) +
                     ": T3 keeps one list of a child's launches per parent block");
  return llvm::Error::success();
}

} // namespace

llvm::Error blockRunRefusal(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                            const LaunchSite &Site, ShadowCallees &Shadows) {
  if (llvm::Error Common = removalRefusal(Site))
    return Common;
  if (!Site.Parent->hasAttr<clang::CUDAGlobalAttr>())
    return refusal("the parent is a __device__ function: T3 runs the children where the parent "
                   "kernel's block ends");
  if (llvm::Error Unnamed = blockRunTemplateRefusal(Ctx, Launches, Site))
    return Unnamed;
  const KernelFeatures &F = Launches.ChildFeatures.at(Site.Child);
  for (const std::string &Barrier : F.Barriers)
    if (Barrier != "__syncthreads")
      return refusal("child uses " + Barrier +
                     ": T3 maps only __syncthreads onto the threads "
                     "that run a child block");
  if (F.UsesInlineAsm)
    return refusal(inlineAsmUse(F));
  if (!F.OpaqueCallees.empty())
    return refusal("child calls '" + *F.OpaqueCallees.begin() +
                   "', whose definition is not in this translation unit");
  // The parent block's threads would make the child grids' tail launches.
  if (F.TailLaunches)
    return refusal("child tail-launches kernels: run by the parent block, its tail launches "
                   "would come from many threads of the parent grid, which CUDA 13.0 can leave "
                   "unfinished");
  BarrierCallees Callees;
  Callees.TraverseStmt(Site.Child->getBody());
  if (!Callees.Found.empty())
    return refusal("child calls '" + Callees.Found +
                   "', which uses __syncthreads: T3 maps only "
                   "the barriers of the child's own body");
  // Parent thread t runs child thread t: barriers and warp primitives need
  // every thread of a child block in the parent block at once.
  if (!F.Barriers.empty() || !F.WarpPrimitives.empty()) {
    std::string Where;
    std::optional<uint64_t> ParentThreads = overParentLaunches(
        Launches, Site, [&](const LaunchSite &L) { return constantOperand(Ctx, L.Block); }, Where);
    std::optional<uint64_t> ChildThreads = constantOperand(Ctx, Site.Block);
    bool Fits = isParentBlockDim(Site.Block) ||
                (ParentThreads && ChildThreads && *ChildThreads <= *ParentThreads);
    if (!Fits) {
      std::string Uses = !F.Barriers.empty() ? *F.Barriers.begin() : *F.WarpPrimitives.begin();
      std::string Parent = ParentThreads ? std::to_string(*ParentThreads) + " threads"
                                         : "a block size not known here (" + Where + ")";
      std::string Child =
          ChildThreads ? std::to_string(*ChildThreads) + " threads" : "a block size not known here";
      return refusal("the child block (" + Child +
                     ") may need more threads than the parent "
                     "block (" +
                     Parent + ") and the child uses " + Uses + ": its threads must run at once");
    }
  }
  // A size the child never reads (no `extern __shared__` in it or its
  // callees) needs no room in the parent block.
  if (Site.SharedMemory && !childIgnoresSharedMemorySize(Ctx, Site)) {
    std::optional<uint64_t> ChildBytes = constantOperand(Ctx, Site.SharedMemory);
    if (!ChildBytes || *ChildBytes > 0) {
      std::string Where;
      std::optional<uint64_t> ParentBytes = overParentLaunches(
          Launches, Site,
          [&](const LaunchSite &L) -> std::optional<uint64_t> {
            return L.SharedMemory ? constantOperand(Ctx, L.SharedMemory) : 0;
          },
          Where);
      if (!ChildBytes || !ParentBytes || *ChildBytes > *ParentBytes)
        return refusal(
            "the child's dynamic shared memory (" +
            (ChildBytes ? std::to_string(*ChildBytes) + " bytes" : std::string("not a constant")) +
            ") may be larger than the parent block has (" +
            (ParentBytes ? std::to_string(*ParentBytes) + " bytes" : "unknown: " + Where) + ")");
    }
  }
  WaitFinder Waits(Ctx, Site);
  Waits.TraverseStmt(Site.Parent->getBody());
  if (!Waits.Found.empty())
    return refusal("the parent waits for the child's results before it ends (" + Waits.Found +
                   "); T3 runs the child only when the parent block is done");
  return Shadows.require(*Site.Child);
}

namespace {
class DirectCalls : public clang::RecursiveASTVisitor<DirectCalls> {
public:
  bool VisitCallExpr(clang::CallExpr *Call) {
    if (const clang::FunctionDecl *Callee = Call->getDirectCallee())
      if (const clang::FunctionDecl *Definition = Callee->getDefinition())
        Found.push_back(Definition);
    return true;
  }
  std::vector<const clang::FunctionDecl *> Found;
};
} // namespace

std::set<const clang::FunctionDecl *>
callReach(const std::vector<const clang::FunctionDecl *> &Roots) {
  std::set<const clang::FunctionDecl *> Reached;
  std::vector<const clang::FunctionDecl *> Work;
  for (const clang::FunctionDecl *Root : Roots)
    if (const clang::FunctionDecl *Definition = Root->getDefinition())
      Work.push_back(Definition);
  while (!Work.empty()) {
    const clang::FunctionDecl *F = Work.back();
    Work.pop_back();
    if (!Reached.insert(F->getCanonicalDecl()).second || !F->hasBody())
      continue;
    DirectCalls Calls;
    Calls.TraverseStmt(F->getBody());
    Work.insert(Work.end(), Calls.Found.begin(), Calls.Found.end());
  }
  return Reached;
}

// A size whose expression has side effects is kept: dropping it would drop them.
bool childIgnoresSharedMemorySize(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  return Site.SharedMemory && Site.Child && !Site.SharedMemory->HasSideEffects(Ctx) &&
         !computeKernelFeatures(*Site.Child).UsesDynamicSharedMemory;
}

LaunchText recordedLaunchText(const clang::ASTContext &Ctx, const LaunchSite &Site, LaunchText L) {
  if (childIgnoresSharedMemorySize(Ctx, Site))
    L.SharedMemory = "0";
  return L;
}

bool runsIn(const clang::FunctionDecl *Caller, const std::set<const clang::FunctionDecl *> &Reach) {
  // A lambda's body counts as its enclosing function's.
  for (const clang::DeclContext *C = Caller; C; C = C->getParent())
    if (auto *F = llvm::dyn_cast<clang::FunctionDecl>(C))
      if (Reach.count(F->getCanonicalDecl()))
        return true;
  return false;
}

std::vector<const DeviceRuntimeUse::StreamLifetimeCall *>
recordedStreamCalls(const DeviceRuntimeUse &Use, const LaunchAnalysis &Launches,
                    const LaunchSite &Site) {
  std::set<const clang::VarDecl *> Streams;
  auto Note = [&](const LaunchSite &S) {
    if (S.CreatedStream)
      Streams.insert(S.CreatedStream);
  };
  auto Own = Launches.SitesByParent.find(Site.Parent);
  if (Own != Launches.SitesByParent.end())
    for (unsigned Index : Own->second)
      Note(Launches.Sites[Index]);
  if (Site.Child)
    for (const LaunchSite *S : selfLaunches(Launches, *Site.Child))
      Note(*S);
  std::vector<const DeviceRuntimeUse::StreamLifetimeCall *> Calls;
  for (const DeviceRuntimeUse::StreamLifetimeCall &C : Use.StreamLifetimes)
    if (Streams.count(C.Stream))
      Calls.push_back(&C);
  return Calls;
}

std::vector<const LaunchSite *> selfLaunches(const LaunchAnalysis &Launches,
                                             const clang::FunctionDecl &Child) {
  std::vector<const LaunchSite *> Own;
  auto It = Launches.SitesByParent.find(&Child);
  if (It != Launches.SitesByParent.end())
    for (unsigned Index : It->second)
      Own.push_back(&Launches.Sites[Index]);
  return Own;
}

std::vector<const clang::FunctionDecl *> recordedKernels(const LaunchAnalysis &Launches,
                                                         const clang::FunctionDecl &Parent,
                                                         const clang::FunctionDecl &Child) {
  std::vector<const clang::FunctionDecl *> Kernels{Child.getCanonicalDecl()};
  if (Child.getCanonicalDecl() == Parent.getCanonicalDecl())
    return Kernels;
  for (size_t I = 0; I < Kernels.size(); ++I)
    for (const LaunchSite *Own : selfLaunches(Launches, *Kernels[I])) {
      if (!Own->Child)
        continue;
      const clang::FunctionDecl *Next = Own->Child->getCanonicalDecl();
      if (Next != Parent.getCanonicalDecl() &&
          std::find(Kernels.begin(), Kernels.end(), Next) == Kernels.end())
        Kernels.push_back(Next);
    }
  return Kernels;
}

namespace {

// Why a launch that a kernel the persistent grid runs makes of another
// kernel (a nested child) cannot be recorded in the parent's queue.
llvm::Error nestedChildRefusal(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                               const LaunchSite &Own, const clang::FunctionDecl &Parent) {
  std::string Where =
      "the child launches '" + Own.ChildName + "' (line " + std::to_string(Own.Position.Line) + ")";
  if (Own.Child->getCanonicalDecl() == Parent.getCanonicalDecl())
    return refusal(Where + ", the parent: the persistent grid starts a recursion only from the "
                           "parent's own launches");
  if (!Own.Child->hasBody() || !Launches.ChildFeatures.count(Own.Child))
    return refusal(Where + ", not defined in this file: the persistent grid runs copies of it");
  if (childRunsAsWholeBlocks(Launches, Own))
    return refusal(Where + ", whose threads work together: the persistent grid takes such a "
                           "child only from the parent or from itself");
  if (llvm::Error Blocker = serialCopyBlocker(Launches.ChildFeatures.at(Own.Child)))
    return refusal(Where + ": " + llvm::toString(std::move(Blocker)));
  if (Own.Child->isTemplated() || Own.Parent->isTemplated())
    return refusal(Where + ": the persistent grid records a nested launch of templates not yet");
  // The records and copies of nested children are named, unqualified,
  // beside the parent.
  if (!sameEnclosingNamespace(Own) ||
      Own.Child->getEnclosingNamespaceContext() != Parent.getEnclosingNamespaceContext())
    return refusal(Where + ": a nested child of another namespace than the parent's");
  const clang::SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isBeforeInTranslationUnit(Own.Child->getEndLoc(), Parent.getBeginLoc()))
    return refusal(Where + ", defined after the parent: the record of its launch goes before "
                           "the parent");
  llvm::Expected<KernelCopy> Copy = readKernel(Ctx, *Own.Child->getDefinition());
  if (!Copy)
    return refusal(Where + ": " + llvm::toString(Copy.takeError()));
  return llvm::Error::success();
}

} // namespace

llvm::Error recordedLaunchRefusal(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                  const clang::FunctionDecl &Parent,
                                  const clang::FunctionDecl &Child,
                                  bool AssumeIndependentChildren) {
  bool ChildIsParent = Child.getCanonicalDecl() == Parent.getCanonicalDecl();
  for (const clang::FunctionDecl *Kernel : recordedKernels(Launches, Parent, Child))
    for (const LaunchSite *Own : selfLaunches(Launches, *Kernel)) {
      std::string Where = "line " + std::to_string(Own->Position.Line);
      if (!Own->Child)
        return refusal("the child's launch at " + Where +
                       " cannot be recorded: " + Own->UnresolvedReason);
      bool Itself = Own->Child->getCanonicalDecl() == Kernel->getCanonicalDecl();
      // A kernel that launches itself is its own parent: its launches of
      // other children are the parent's, each decided as a site of the parent.
      if (!Itself && ChildIsParent)
        continue;
      std::string What = Itself ? "the child's launch of itself"
                                : "the child's launch of '" + Own->ChildName + "'";
      if (llvm::Error Common = launchSiteRefusal(*Own))
        return refusal(What + " (" + Where +
                       ") cannot be recorded: " + llvm::toString(std::move(Common)));
      if (Own->InClosure)
        return refusal(What + " (" + Where +
                       ") is written in a lambda, which may run it outside the persistent grid");
      if (!Itself)
        if (llvm::Error Nested = nestedChildRefusal(Ctx, Launches, *Own, Parent))
          return Nested;
      if (llvm::Error Order = unorderedRunRefusal(Launches, *Own, AssumeIndependentChildren, What))
        return Order;
    }
  return llvm::Error::success();
}

llvm::Error unorderedRunRefusal(const LaunchAnalysis &Launches, const LaunchSite &Site,
                                bool AssumeIndependentChildren, const std::string &What) {
  if (AssumeIndependentChildren)
    return llvm::Error::success();
  std::string Where = What + " (line " + std::to_string(Site.Position.Line) + ")";
  const char *Why = "the persistent grid runs recorded launches in any order (pass "
                    "--assume-independent-children if they do not depend on each other)";
  if (Site.FollowsUnseenLaunches || Site.FollowedByUnseenLaunches)
    return refusal(Where + ": " + Site.UnseenOrder + "; " + Why);
  if (Site.StreamKind == LaunchStream::FireAndForget ||
      !mayReorderWithEarlierLaunch(Launches, Site))
    return llvm::Error::success();
  Independence Proof = proveIndependentOfEarlierLaunches(Launches, Site);
  if (Proof.Proved)
    return llvm::Error::success();
  return refusal(Where +
                 " follows another launch of its thread into an ordered stream, not "
                 "proved independent: " +
                 Proof.Text + "; " + Why);
}

bool launchesItself(const LaunchSite &Site) {
  return Site.Child && Site.Parent &&
         Site.Child->getCanonicalDecl() == Site.Parent->getCanonicalDecl();
}

bool parentLaunchesItself(const LaunchAnalysis &Launches, const clang::FunctionDecl &Parent) {
  for (const LaunchSite *Own : selfLaunches(Launches, Parent))
    if (launchesItself(*Own))
      return true;
  return false;
}

namespace {

// The persistent grid of a template parent is a template of the parent's
// parameters, and so are its queue and the names its code gives the child:
// the child's template arguments must be known in the parent's terms, and a
// recursion must stay in the one instantiation whose queue it records into.
llvm::Error persistentTemplateRefusal(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                      const LaunchSite &Site, bool Self) {
  if (!Site.Parent->isTemplated() && !Site.Child->isTemplated())
    return llvm::Error::success();
  if (Site.Child->isTemplated() && launchTemplateArguments(Ctx, Site).empty())
    return refusal("the launch leaves the child's template arguments to deduction from "
                   "arguments whose types are not known before the parent is instantiated: the "
                   "persistent grid's records cannot name them (write them out)");
  const clang::FunctionTemplateDecl *Own = Site.Parent->getDescribedFunctionTemplate();
  std::string ParentArguments;
  if (Own) {
    std::vector<std::string> Names;
    for (const clang::NamedDecl *P : *Own->getTemplateParameters())
      Names.push_back(P->getNameAsString());
    ParentArguments = "<" + llvm::join(Names, ", ") + ">";
  }
  // One queue per parent, of one record type.
  std::string Arguments = launchTemplateArguments(Ctx, Site);
  for (const LaunchSite &Other : Launches.Sites)
    if (&Other != &Site && Other.DeviceSide && Other.Parent == Site.Parent &&
        Other.Child == Site.Child && launchTemplateArguments(Ctx, Other) != Arguments)
      return refusal("the parent launches '" + Site.ChildName +
                     "' with other template arguments at line " +
                     std::to_string(Other.Position.Line) +
                     ": its persistent grid keeps one queue of one record type");
  std::vector<const LaunchSite *> Recursion = selfLaunches(Launches, *Site.Child);
  if (!Self && !Recursion.empty())
    return refusal("the template child launches '" + Recursion.front()->ChildName + "' (line " +
                   std::to_string(Recursion.front()->Position.Line) +
                   "): its copies would record into the parent's queue, which they cannot name "
                   "in their own template's terms");
  for (const LaunchSite *Again : Recursion) {
    std::string Written = launchTemplateArguments(Ctx, *Again);
    if (llvm::StringRef(Written).rtrim() != llvm::StringRef(ParentArguments).rtrim())
      return refusal("the template kernel launches itself at line " +
                     std::to_string(Again->Position.Line) + " with other template arguments (" +
                     (Written.empty() ? "none written" : Written) + ", not " + ParentArguments +
                     "): the persistent grid records a recursion in its own instantiation only");
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error persistentGridRefusal(clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                                  const LaunchSite &Site, ShadowCallees &Shadows,
                                  bool AssumeIndependentChildren) {
  // A kernel that launches itself is its own parent: the host's launch
  // starts the recursion in the persistent grid, which records the rest.
  bool Self = launchesItself(Site);
  if (llvm::Error Common = Self ? launchSiteRefusal(Site) : removalRefusal(Site))
    return Common;
  if (!Site.Parent->hasAttr<clang::CUDAGlobalAttr>())
    return refusal("the parent is a __device__ function: only a kernel's grid can be made "
                   "persistent");
  if (llvm::Error Unnamed = persistentTemplateRefusal(Ctx, Launches, Site, Self))
    return Unnamed;
  // Threads that work together run as a whole block of the grid
  // (PersistentBlockChild.h); what else keeps a thread from running apart
  // (inline assembly, unseen callees, tail launches) refuses either way.
  // Such a block also reads the same lane registers (cooperative groups'
  // lane masks).
  bool WholeBlocks = childRunsAsWholeBlocks(Launches, Site);
  KernelFeatures Apart = Launches.ChildFeatures.at(Site.Child);
  Apart.Barriers.clear();
  Apart.WarpPrimitives.clear();
  Apart.UsesSharedMemory = false;
  if (WholeBlocks && Apart.InlineAsmSameInABlock)
    Apart.UsesInlineAsm = false;
  if (llvm::Error Blocker = serialCopyBlocker(Apart))
    return refusal("T1/T2 run the child's blocks in the persistent grid's: " +
                   llvm::toString(std::move(Blocker)));
  if (WholeBlocks)
    if (llvm::Error Blocker = persistentBlockChildRefusal(Ctx, Launches, Site))
      return Blocker;
  // A cooperatively launched kernel cannot use dynamic parallelism: a child
  // that launches itself records those launches in the grid's queue too.
  if (llvm::Error Nested = recordedLaunchRefusal(Ctx, Launches, *Site.Parent, *Site.Child,
                                                 AssumeIndependentChildren))
    return Nested;
  for (const LaunchSite &Other : Launches.Sites)
    if (Other.DeviceSide && Other.Parent && !Other.Parent->hasAttr<clang::CUDAGlobalAttr>())
      return refusal("the __device__ function '" + Other.ParentName + "' launches '" +
                     Other.ChildName + "' (line " + std::to_string(Other.Position.Line) +
                     "): the persistent grid is launched cooperatively, and a cooperative "
                     "kernel cannot launch");
  // The twin records every launch of the parent, or none (each of another
  // child under one tag of the parent's record: RecordOfAny).
  auto Own = Launches.SitesByParent.find(Site.Parent);
  if (Own != Launches.SitesByParent.end())
    for (unsigned Index : Own->second)
      if (llvm::Error Order = unorderedRunRefusal(
              Launches, Launches.Sites[Index], AssumeIndependentChildren,
              &Launches.Sites[Index] == &Site ? "the launch" : "the parent's launch"))
        return Order;
  const clang::FunctionDecl *Parent = Site.Parent->getCanonicalDecl();
  const clang::SourceManager &SM = Ctx.getSourceManager();
  // A parent that launches itself besides this child starts the recursion
  // in its persistent grid as well.
  bool Recurses = Self || parentLaunchesItself(Launches, *Site.Parent);
  for (const LaunchSite &Other : Launches.Sites) {
    if (!Other.Child || Other.Child->getCanonicalDecl() != Parent)
      continue;
    if (Other.DeviceSide && Recurses && Other.Parent->getCanonicalDecl() != Parent)
      return refusal("the kernel is also launched from '" + Other.ParentName + "' (line " +
                     std::to_string(Other.Position.Line) +
                     "): only a kernel that just the host and itself launch starts its "
                     "recursion in a persistent grid");
    if (Other.DeviceSide && Recurses)
      continue;
    if (Other.DeviceSide)
      return refusal("the parent is launched from the device (line " +
                     std::to_string(Other.Position.Line) +
                     "): only the host can launch a cooperative persistent grid");
    if (!SM.isBeforeInTranslationUnit(Site.Parent->getEndLoc(), Other.Call->getBeginLoc()))
      return refusal("the parent is launched at line " + std::to_string(Other.Position.Line) +
                     " before its definition: the persistent grid is defined after it");
  }
  if (hostLaunchesOf(Launches, *Site.Parent).empty())
    return refusal("the parent is not launched in this file: its launches could not be made "
                   "persistent");
  if (!Self && !SM.isBeforeInTranslationUnit(Site.Child->getEndLoc(), Site.Parent->getBeginLoc()))
    return refusal("the child is defined after the parent: the record of its launch goes "
                   "before the parent");
  WaitFinder Waits(Ctx, Site);
  Waits.TraverseStmt(Site.Parent->getBody());
  if (!Waits.Found.empty())
    return refusal("the parent waits for the child's results before it ends (" + Waits.Found +
                   "); the persistent grid runs the child after the parent's own work");
  if (llvm::Error Parent = Shadows.require(*Site.Parent))
    return Parent;
  if (llvm::Error Child = Shadows.require(*Site.Child))
    return Child;
  for (const clang::FunctionDecl *Kernel : recordedKernels(Launches, *Site.Parent, *Site.Child))
    if (const clang::FunctionDecl *Definition = Kernel->getDefinition())
      if (Definition->getCanonicalDecl() != Site.Child->getCanonicalDecl())
        if (llvm::Error Nested = Shadows.require(*Definition))
          return Nested;
  return llvm::Error::success();
}

VersionChoice selectVersion(const clang::ASTContext &Ctx, const LaunchAnalysis &Launches,
                            const LaunchSite &Site) {
  if (!Site.Child || !Launches.ChildFeatures.count(Site.Child))
    return {RemovalVersion::T4, "the child is not known"};
  const KernelFeatures &F = Launches.ChildFeatures.at(Site.Child);
  if (childNeedsBlock(F))
    return {RemovalVersion::T3, "the child's threads work together (barriers, shared memory or "
                                "warp primitives): a parent block runs its blocks"};
  std::optional<uint64_t> Grid = constantOperand(Ctx, Site.Grid);
  std::optional<uint64_t> Block = constantOperand(Ctx, Site.Block);
  if (Grid && Block && *Grid * *Block >= LargeChildThreads)
    return {RemovalVersion::T3, "the child has " + std::to_string(*Grid * *Block) +
                                    " threads, known large: the parent block shares them"};
  return {RemovalVersion::T4,
          Grid && Block ? "the child has " + std::to_string(*Grid * *Block) +
                              " independent threads, few enough for the parent thread"
                        : "the child's threads are independent and its size is data-dependent "
                          "(small or uniform per parent thread): the parent thread runs them"};
}

} // namespace launchopt

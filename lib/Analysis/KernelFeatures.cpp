#include "KernelFeatures.h"

#include "CooperativeGroups.h"
#include "LaunchSites.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <iterator>

namespace launchopt {

bool isBuiltinIndexVariable(const clang::ValueDecl *D) {
  if (!D || !llvm::isa<clang::VarDecl>(D))
    return false;
  llvm::StringRef Name = D->getName();
  if (Name != "threadIdx" && Name != "blockIdx" && Name != "blockDim" && Name != "gridDim")
    return false;
  return D->getDeclContext()->isFileContext();
}

const clang::DeclRefExpr *builtinIndexBase(const clang::MSPropertyRefExpr &Property) {
  const clang::Expr *Base = Property.getBaseExpr()->IgnoreImplicit();
  if (auto *Opaque = llvm::dyn_cast<clang::OpaqueValueExpr>(Base))
    Base = Opaque->getSourceExpr()->IgnoreImplicit();
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Base);
  return Ref && isBuiltinIndexVariable(Ref->getDecl()) ? Ref : nullptr;
}

namespace {

bool isBarrierName(llvm::StringRef Name) {
  return Name.starts_with("__syncthreads") || Name == "__syncwarp" ||
         Name.starts_with("__barrier_sync") || Name == "sync" || Name == "barrier_wait" ||
         Name == "arrive_and_wait";
}

bool isWarpPrimitiveName(llvm::StringRef Name) {
  return Name.starts_with("__shfl") || Name.starts_with("__ballot") || Name.starts_with("__any") ||
         Name.starts_with("__all") || Name == "__activemask" || Name.starts_with("__match_") ||
         (Name.starts_with("__reduce_") && Name.ends_with("_sync")) || Name.starts_with("__vote");
}

// Whether a function is the runtime's pooling of serial copies
// (launchopt::packing, runtime/include/launchopt/packing.cuh). Its warp
// primitives involve only the lanes that call it together, whichever those
// are, so a thread of a coarsened or aggregated copy of its caller may call
// it as the original thread did; the child body it runs is the serial
// copy's own callee, walked from the copy's serial loop.
bool isLanePoolingRuntime(const clang::FunctionDecl &F) {
  const auto *Packing = llvm::dyn_cast<clang::NamespaceDecl>(F.getDeclContext());
  if (!Packing || Packing->getName() != "packing")
    return false;
  const auto *Launchopt = llvm::dyn_cast<clang::NamespaceDecl>(Packing->getDeclContext());
  return Launchopt && Launchopt->getName() == "launchopt" &&
         Launchopt->getDeclContext()->isTranslationUnit();
}

// Whether an asm template reads no special register but the thread's own
// place in its block and warp, and clocks (`%%laneid`, `%%lanemask_lt`,
// `%%tid`): a block that runs a child block with the same threads reads the
// same values. Grid-level registers (`%%ctaid`, `%%envreg0`, `%%smid`) differ.
bool readsOnlyThreadRegisters(llvm::StringRef Template) {
  static const char *const SameInABlock[] = {
      "laneid",        "lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge", "lanemask_gt",
      "tid",           "ntid",        "clock",       "clock64",     "globaltimer", "globaltimer_lo",
      "globaltimer_hi"};
  for (size_t At = Template.find("%%"); At != llvm::StringRef::npos;
       At = Template.find("%%", At + 2)) {
    llvm::StringRef Name =
        Template.substr(At + 2).take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
    if (std::none_of(std::begin(SameInABlock), std::end(SameInABlock),
                     [&](const char *Safe) { return Name == Safe; }))
      return false;
  }
  return true;
}

class FeatureCollector : public clang::RecursiveASTVisitor<FeatureCollector> {
public:
  FeatureCollector(KernelFeatures &Out, const clang::FunctionDecl *Root) : Out(Out), Root(Root) {}

  void walk(const clang::FunctionDecl *F) {
    if (!Visited.insert(F).second)
      return;
    const clang::FunctionDecl *Saved = Current;
    Current = F;
    TraverseStmt(F->getBody());
    Current = Saved;
  }

  bool VisitMSPropertyRefExpr(clang::MSPropertyRefExpr *E) {
    const clang::DeclRefExpr *Base = builtinIndexBase(*E);
    if (!Base)
      return true;
    llvm::StringRef Member = E->getPropertyDecl()->getName();
    DimensionMask Bit = Member == "x" ? 1 : Member == "y" ? 2 : Member == "z" ? 4 : 7;
    noteBuiltin(Base->getDecl()->getName(), Bit);
    Dimensioned.insert(Base);
    // The pseudo-object's semantic form repeats the base; skip it.
    return true;
  }

  bool TraversePseudoObjectExpr(clang::PseudoObjectExpr *E) {
    return TraverseStmt(E->getSyntacticForm());
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (isBuiltinIndexVariable(E->getDecl()) && !Dimensioned.count(E))
      noteBuiltin(E->getDecl()->getName(), 7);
    // An `extern __shared__` array declared at namespace scope, too.
    if (auto *V = llvm::dyn_cast<clang::VarDecl>(E->getDecl()))
      Out.UsesDynamicSharedMemory |= isDynamicShared(*V);
    return true;
  }

  bool VisitVarDecl(clang::VarDecl *V) {
    if (V->hasAttr<clang::CUDASharedAttr>())
      Out.UsesSharedMemory = true;
    Out.UsesDynamicSharedMemory |= isDynamicShared(*V);
    return true;
  }

  static bool isDynamicShared(const clang::VarDecl &V) {
    return V.hasAttr<clang::CUDASharedAttr>() && V.hasExternalStorage();
  }

  bool VisitGCCAsmStmt(clang::GCCAsmStmt *A) {
    if (!Out.UsesInlineAsm && Current && Current != Root)
      Out.InlineAsmCallee = Current->getQualifiedNameAsString();
    Out.UsesInlineAsm = true;
    Out.InlineAsmSameInABlock &= readsOnlyThreadRegisters(A->getAsmString()->getString());
    return true;
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *E) {
    if (const clang::FunctionDecl *Callee = launchedFunction(*E))
      Out.LaunchedKernels.insert(Callee->getNameAsString());
    else if (auto *ULE =
                 llvm::dyn_cast<clang::UnresolvedLookupExpr>(E->getCallee()->IgnoreImplicit()))
      Out.LaunchedKernels.insert(ULE->getName().getAsString());
    Out.TailLaunches |= isTailLaunch(Root->getASTContext(), *E);
    return true;
  }

  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr *E) {
    noteCalleeName(E->getName().getAsString());
    return true;
  }

  bool VisitUnresolvedMemberExpr(clang::UnresolvedMemberExpr *E) {
    noteCalleeName(E->getMemberName().getAsString());
    return true;
  }

  bool VisitCXXDependentScopeMemberExpr(clang::CXXDependentScopeMemberExpr *E) {
    noteCalleeName(E->getMember().getAsString());
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *E) {
    if (llvm::isa<clang::CUDAKernelCallExpr>(E))
      return true;
    const clang::FunctionDecl *Callee = E->getDirectCallee();
    if (!Callee || isLanePoolingRuntime(*Callee))
      return true;
    std::string Name = Callee->getNameAsString();
    noteCalleeName(Name);
    // A group's index query reads the built-ins its formula names.
    if (std::optional<GroupQuery> Q = groupQueryOf(Callee->getASTContext(), *E)) {
      if (Q->WarpCollective && Q->Member != "sync")
        Out.WarpPrimitives.insert("cooperative_groups " + Q->Member);
      for (const char *Builtin : {"blockIdx", "threadIdx", "blockDim", "gridDim"})
        if (Q->Expression.find(Builtin) != std::string::npos)
          noteBuiltin(Builtin, 7);
      if (!Q->Expression.empty() || !Q->Problem.empty())
        return true;
    }
    if (Callee->getBuiltinID() || isBarrierName(Name) || isWarpPrimitiveName(Name))
      return true;
    const clang::FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
    const clang::FunctionDecl *Def = nullptr;
    if (!(Pattern ? Pattern : Callee)->hasBody(Def) || !Def) {
      const clang::SourceManager &SM = Callee->getASTContext().getSourceManager();
      if (!SM.isInSystemHeader(Callee->getLocation()))
        Out.OpaqueCallees.insert(Name);
      return true;
    }
    KernelFeatures Inner;
    FeatureCollector Sub(Inner, Root);
    Sub.Visited = Visited;
    Sub.walk(Def);
    Visited.insert(Sub.Visited.begin(), Sub.Visited.end());
    merge(Inner, Name);
    return true;
  }

private:
  void noteBuiltin(llvm::StringRef Name, DimensionMask Bits) {
    Out.BuiltinDimensions[Name.str()] |= Bits;
  }

  void noteCalleeName(const std::string &Name) {
    if (isBarrierName(Name) && Name != "sync")
      Out.Barriers.insert(Name);
    else if (Name == "sync")
      Out.Barriers.insert("cooperative_groups sync");
    else if (isWarpPrimitiveName(Name))
      Out.WarpPrimitives.insert(Name);
  }

  // A callee's features count as the kernel's, but its reads of built-in
  // variables make it a callee that reads thread identity.
  void merge(const KernelFeatures &Inner, const std::string &CalleeName) {
    Out.Barriers.insert(Inner.Barriers.begin(), Inner.Barriers.end());
    Out.WarpPrimitives.insert(Inner.WarpPrimitives.begin(), Inner.WarpPrimitives.end());
    Out.UsesSharedMemory |= Inner.UsesSharedMemory;
    Out.UsesDynamicSharedMemory |= Inner.UsesDynamicSharedMemory;
    if (!Out.UsesInlineAsm && Inner.UsesInlineAsm)
      Out.InlineAsmCallee = Inner.InlineAsmCallee.empty() ? CalleeName : Inner.InlineAsmCallee;
    Out.UsesInlineAsm |= Inner.UsesInlineAsm;
    Out.InlineAsmSameInABlock &= Inner.InlineAsmSameInABlock;
    Out.TailLaunches |= Inner.TailLaunches;
    Out.LaunchedKernels.insert(Inner.LaunchedKernels.begin(), Inner.LaunchedKernels.end());
    Out.OpaqueCallees.insert(Inner.OpaqueCallees.begin(), Inner.OpaqueCallees.end());
    Out.CalleesReadingThreadIdentity.insert(Inner.CalleesReadingThreadIdentity.begin(),
                                            Inner.CalleesReadingThreadIdentity.end());
    if (!Inner.BuiltinDimensions.empty())
      Out.CalleesReadingThreadIdentity.insert(CalleeName);
  }

  KernelFeatures &Out;
  const clang::FunctionDecl *Root;
  const clang::FunctionDecl *Current = nullptr;
  std::set<const clang::FunctionDecl *> Visited;
  std::set<const clang::DeclRefExpr *> Dimensioned;
};

} // namespace

KernelFeatures computeKernelFeatures(const clang::FunctionDecl &Kernel) {
  KernelFeatures Features;
  FeatureCollector Collector(Features, &Kernel);
  Collector.walk(&Kernel);
  return Features;
}

std::string inlineAsmUse(const KernelFeatures &F) {
  if (F.InlineAsmCallee.empty())
    return "child uses inline assembly";
  if (llvm::StringRef(F.InlineAsmCallee).starts_with("cooperative_groups::"))
    return "child uses cooperative groups, whose '" + F.InlineAsmCallee +
           "' reads the GPU's registers in inline assembly";
  return "child calls '" + F.InlineAsmCallee + "', which uses inline assembly";
}

std::optional<std::pair<llvm::StringRef, int>> builtinMember(const clang::Expr *E) {
  if (const auto *P = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
    E = P->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *Property = llvm::dyn_cast<clang::MSPropertyRefExpr>(E);
  const clang::DeclRefExpr *Base = Property ? builtinIndexBase(*Property) : nullptr;
  if (!Base)
    return std::nullopt;
  llvm::StringRef Member = Property->getPropertyDecl()->getName();
  int Axis = Member == "x" ? 0 : Member == "y" ? 1 : Member == "z" ? 2 : -1;
  if (Axis < 0)
    return std::nullopt;
  return std::pair(Base->getDecl()->getName(), Axis);
}

std::string dimensionString(DimensionMask Mask) {
  std::string S;
  if (Mask & 1)
    S += 'x';
  if (Mask & 2)
    S += 'y';
  if (Mask & 4)
    S += 'z';
  return S;
}

} // namespace launchopt

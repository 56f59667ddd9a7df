#include "LaunchAcceptance.h"

#include "Refusal.h"
#include "Analysis/LaunchPlacement.h"
#include "clang/AST/Attr.h"

namespace launchopt {

namespace {

// Another kernel of the child's scope with the child's name (an overload).
bool overloadedKernel(const clang::FunctionDecl &Child) {
  const clang::FunctionDecl *Own = Child.getPrimaryTemplate()
                                       ? Child.getPrimaryTemplate()->getTemplatedDecl()
                                       : Child.getCanonicalDecl();
  for (const clang::NamedDecl *D :
       Child.getDeclContext()->getRedeclContext()->lookup(Child.getDeclName())) {
    const clang::FunctionDecl *F = D->getAsFunction();
    if (F && F->getCanonicalDecl() != Own->getCanonicalDecl() &&
        F->hasAttr<clang::CUDAGlobalAttr>())
      return true;
  }
  return false;
}

// A pass that names what it generates after the child cannot take a child
// whose name another kernel overloads.
llvm::Error overloadRefusal(const AcceptanceSteps &Steps, const clang::FunctionDecl &Child) {
  if (!Steps.NamesAfterChild || !overloadedKernel(Child))
    return llvm::Error::success();
  return refusal("another kernel overloads the child's name '" + Child.getNameAsString() +
                 "', after which this pass names what it generates for the child");
}

} // namespace

void insertPrototype(SourceEdits &Edits, const AcceptedLaunch &A, const std::string &Prototype) {
  if (!A.PrototypeInNamespace) {
    Edits.insert(A.ParentStart, Prototype);
    return;
  }
  const IncludedPlacement &At = *A.PrototypeInNamespace;
  Edits.insert(At.Offset, At.NamespacesOpen + Prototype + At.NamespacesClose);
}

void noteChildInHeader(const AcceptedLaunch &A, const clang::FunctionDecl *Child,
                       std::map<const clang::FunctionDecl *, IncludedPlacement> &Placements,
                       LaunchRemark &Remark) {
  if (!A.ChildInHeader)
    return;
  Placements.emplace(Child, *A.ChildInHeader);
  Remark.Parameters["copied-after"] = "the #include of the header that defines it";
}

llvm::Expected<AcceptedLaunch> acceptLaunch(clang::ASTContext &Ctx, const LaunchSite &Site,
                                            llvm::Error Refusal, const AcceptanceSteps &Steps) {
  if (Refusal)
    return std::move(Refusal);
  if (!Site.LeftByPlan.empty())
    return refusal(Site.LeftByPlan);
  if (llvm::Error Overload = overloadRefusal(Steps, *Site.Child))
    return std::move(Overload);
  llvm::Expected<LaunchText> Text = readLaunchText(Ctx, Site);
  if (!Text)
    return Text.takeError();
  clang::FileID Header =
      Steps.ChildInIncludedFile ? includedFileOf(Ctx, *Site.Child) : clang::FileID();
  llvm::Expected<KernelCopy> Child = readKernel(Ctx, *Site.Child, Header);
  if (!Child)
    return Child.takeError();
  AcceptedLaunch A{std::move(*Text), std::move(*Child)};
  if (Header.isValid()) {
    llvm::Expected<IncludedPlacement> Placement = placementOf(Ctx, *Site.Child, Header);
    if (!Placement)
      return refusal("the child kernel " + llvm::toString(Placement.takeError()));
    A.ChildInHeader = std::move(*Placement);
  }
  if (Steps.ReadParent) {
    llvm::Expected<KernelCopy> Parent = readKernel(Ctx, *Site.Parent);
    if (!Parent)
      return Parent.takeError();
    A.Parent = std::move(*Parent);
  }
  A.ParentStart = definitionStart(Ctx, *Site.Parent);
  if (A.ChildInHeader && A.ChildInHeader->Offset > A.ParentStart)
    return refusal("the child kernel is defined in a header included after the parent");
  A.NeedsPrototype = !A.ChildInHeader && A.ParentStart < A.Child.Whole.End;
  if (A.NeedsPrototype && !sameNamespace(Site)) {
    std::optional<unsigned> Outer = topLevelStart(Ctx, *Site.Parent);
    llvm::Expected<IncludedPlacement> At =
        Outer ? namespacePlacement(*Site.Child, *Outer)
              : llvm::Expected<IncludedPlacement>(refusal("no place"));
    if (!At) {
      llvm::consumeError(At.takeError());
      return refusal("the child is defined after the parent, in another namespace");
    }
    A.PrototypeInNamespace = std::move(*At);
  }
  if (!Steps.CalleePrefix.empty()) {
    llvm::Expected<std::string> Callee = prefixedCallee(Ctx, Site, Steps.CalleePrefix);
    if (!Callee)
      return Callee.takeError();
    A.Callee = std::move(*Callee);
  }
  A.TemplateArguments = launchTemplateArguments(Ctx, Site);
  return std::move(A);
}

llvm::Error copiesForOtherFilesBlocker(clang::ASTContext &Ctx, const clang::FunctionDecl &Child) {
  ShadowCallees Shadows(Ctx);
  if (llvm::Error Unshadowable = Shadows.require(Child))
    return Unshadowable;
  return readKernel(Ctx, Child).takeError();
}

std::vector<const clang::FunctionDecl *>
addExportedChildren(clang::ASTContext &Ctx, const LaunchAnalysis &Launches, ShadowCallees &Shadows,
                    std::map<const clang::FunctionDecl *, KernelCopy> &Copies) {
  std::vector<const clang::FunctionDecl *> Added;
  for (const clang::FunctionDecl *Child : Launches.ExportedChildren) {
    if (Copies.count(Child))
      continue;
    llvm::Expected<KernelCopy> Copy = readKernel(Ctx, *Child);
    if (llvm::Error Refused = Copy ? Shadows.require(*Child) : Copy.takeError()) {
      llvm::consumeError(std::move(Refused));
      continue;
    }
    Copies.emplace(Child, std::move(*Copy));
    Added.push_back(Child);
  }
  return Added;
}

const ExternalChild *acceptedExternalChild(const LaunchAnalysis &Launches, const LaunchSite &Site) {
  auto It = Launches.ExternalChildren.find(Site.Id);
  return It != Launches.ExternalChildren.end() && It->second.Refusal.empty() ? &It->second
                                                                             : nullptr;
}

llvm::Expected<AcceptedLaunch> acceptExternalLaunch(clang::ASTContext &Ctx, const LaunchSite &Site,
                                                    const ExternalChild &External,
                                                    llvm::Error Refusal,
                                                    const AcceptanceSteps &Steps) {
  if (Refusal)
    return std::move(Refusal);
  if (!Site.LeftByPlan.empty())
    return refusal(Site.LeftByPlan);
  if (llvm::Error Overload = overloadRefusal(Steps, *External.Declaration))
    return std::move(Overload);
  llvm::Expected<LaunchText> Text = readLaunchText(Ctx, Site);
  if (!Text)
    return Text.takeError();
  llvm::Expected<KernelCopy> Child = readKernelDeclaration(Ctx, *External.Declaration);
  if (!Child)
    return Child.takeError();
  AcceptedLaunch A{std::move(*Text), std::move(*Child)};
  if (Steps.ReadParent) {
    llvm::Expected<KernelCopy> Parent = readKernel(Ctx, *Site.Parent);
    if (!Parent)
      return Parent.takeError();
    A.Parent = std::move(*Parent);
  }
  // The copy is declared before the parent, where it must name the
  // definition's namespace.
  if (Site.Parent->getDeclContext()->getRedeclContext() !=
      External.Declaration->getDeclContext()->getRedeclContext())
    return refusal("the child, defined in '" + External.DefiningFile +
                   "', is declared in another namespace than the parent");
  A.ParentStart = definitionStart(Ctx, *Site.Parent);
  A.NeedsPrototype = true;
  if (!Steps.CalleePrefix.empty()) {
    llvm::Expected<std::string> Callee = prefixedCallee(Ctx, Site, Steps.CalleePrefix);
    if (!Callee)
      return Callee.takeError();
    A.Callee = std::move(*Callee);
  }
  return std::move(A);
}

} // namespace launchopt

#include "LaunchAcceptance.h"

#include "Analysis/LaunchPlacement.h"

namespace launchopt {

namespace {

llvm::Error refusal(const std::string &Why) {
  return llvm::make_error<llvm::StringError>(Why, llvm::inconvertibleErrorCode());
}

// `<T>` when the launch names the child's template arguments, else "".
std::string explicitTemplateArguments(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  std::optional<std::string> Written = prefixedCallee(Ctx, Site, "");
  if (!Written)
    return "";
  size_t Angle = Written->find('<');
  return Angle == std::string::npos ? "" : Written->substr(Angle);
}

} // namespace

llvm::Expected<AcceptedLaunch> acceptLaunch(clang::ASTContext &Ctx, const LaunchSite &Site,
                                            const std::string &Refusal,
                                            const AcceptanceSteps &Steps) {
  if (!Refusal.empty())
    return refusal(Refusal);
  LaunchTextOrReason Text = readLaunchText(Ctx, Site);
  if (!Text.Text)
    return refusal(Text.Reason);
  KernelCopyOrReason Child = readKernel(Ctx, *Site.Child);
  if (!Child.Copy)
    return refusal(Child.Reason);
  AcceptedLaunch A{std::move(*Text.Text), std::move(*Child.Copy)};
  if (Steps.ReadParent) {
    KernelCopyOrReason Parent = readKernel(Ctx, *Site.Parent);
    if (!Parent.Copy)
      return refusal(Parent.Reason);
    A.Parent = std::move(Parent.Copy);
  }
  A.ParentStart = definitionStart(Ctx, *Site.Parent);
  A.NeedsPrototype = A.ParentStart < A.Child.Whole.End;
  if (A.NeedsPrototype && !sameNamespace(Site))
    return refusal("the child is defined after the parent, in another namespace");
  if (!Steps.CalleePrefix.empty()) {
    std::optional<std::string> Callee = prefixedCallee(Ctx, Site, Steps.CalleePrefix);
    if (!Callee)
      return refusal("the launched kernel's name comes from a macro");
    A.Callee = std::move(*Callee);
  }
  A.TemplateArguments = explicitTemplateArguments(Ctx, Site);
  return std::move(A);
}

} // namespace launchopt

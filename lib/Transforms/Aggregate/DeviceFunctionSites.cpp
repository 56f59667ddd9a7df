#include "DeviceFunctionSites.h"

#include "Support/GeneratedNames.h"
#include "Transforms/Common/KernelCopy.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace launchopt {

namespace {

// The kernels defined in the main file (templates as their patterns): only
// their bodies can be copied with scopes.
class MainFileKernels : public clang::RecursiveASTVisitor<MainFileKernels> {
public:
  explicit MainFileKernels(const clang::SourceManager &SM) : SM(SM) {}

  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    if (F->isThisDeclarationADefinition() && isKernel(*F) && !F->isTemplateInstantiation() &&
        SM.isInMainFile(SM.getExpansionLoc(F->getLocation())))
      Kernels.push_back(F);
    return true;
  }

  std::vector<const clang::FunctionDecl *> Kernels;

private:
  const clang::SourceManager &SM;
};

// The kernels whose copies can call a copy of Function, or the first reason
// a kernel's copy could not be planned.
std::vector<const clang::FunctionDecl *>
kernelsReaching(clang::ASTContext &Ctx, const std::vector<const clang::FunctionDecl *> &Kernels,
                const clang::FunctionDecl *Function, std::string &FirstProblem) {
  ShadowCallees Probe(Ctx);
  Probe.alsoCopy({Function});
  std::vector<const clang::FunctionDecl *> Found;
  for (const clang::FunctionDecl *K : Kernels) {
    if (llvm::Error Why = Probe.require(*K)) {
      if (FirstProblem.empty())
        FirstProblem = "in '" + K->getNameAsString() + "', the " + llvm::toString(std::move(Why));
      else
        llvm::consumeError(std::move(Why));
      continue;
    }
    if (!Probe.reaches(*K, Function))
      continue;
    if (llvm::Error Unreadable = readKernel(Ctx, *K).takeError()) {
      if (FirstProblem.empty())
        FirstProblem = "'" + K->getNameAsString() + "' cannot be copied (" +
                       llvm::toString(std::move(Unreadable)) + ")";
      else
        llvm::consumeError(std::move(Unreadable));
      continue;
    }
    Found.push_back(K);
  }
  return Found;
}

} // namespace

bool isKernel(const clang::FunctionDecl &F) { return F.hasAttr<clang::CUDAGlobalAttr>(); }

const clang::FunctionDecl *definitionOrSelf(const clang::FunctionDecl *F) {
  const clang::FunctionDecl *Def = definitionOf(F);
  return Def ? Def : F;
}

std::vector<std::string> DeviceFunctionScopes::scopeVariables() const {
  std::vector<std::string> Names;
  for (const auto &[Id, Kernels] : KernelsOf)
    Names.push_back(generated::aggregate::ScopeVariablePrefix + std::to_string(Id));
  return Names;
}

std::string DeviceFunctionScopes::parameters() const {
  std::string S;
  for (const std::string &V : scopeVariables())
    S += ", launchopt::AggregationScope *" + V;
  return S;
}

std::string DeviceFunctionScopes::arguments() const {
  std::string S;
  for (const std::string &V : scopeVariables())
    S += ", " + V;
  return S;
}

DeviceFunctionScopes findDeviceFunctionScopes(clang::ASTContext &Ctx,
                                              const LaunchAnalysis &Launches,
                                              const AggregateOptions &Options,
                                              ShadowCallees &Shadows,
                                              const std::set<const clang::FunctionDecl *> *Only) {
  DeviceFunctionScopes Scopes;
  if (Options.HostLaunch)
    return Scopes;
  std::map<const clang::FunctionDecl *, std::vector<unsigned>> SitesIn;
  for (const LaunchSite &Site : Launches.Sites) {
    // A launch of a kernel it cannot name (through a function pointer) is
    // refused where its child is checked.
    if (!Site.DeviceSide || !Site.Parent || !Site.Child || isKernel(*Site.Parent) || Site.InClosure)
      continue;
    // The serial copies an earlier pass generated keep their launches as
    // written: the pipeline orders their children already.
    if (llvm::StringRef(Site.ParentName).starts_with(generated::Prefix))
      continue;
    const clang::FunctionDecl *Function = definitionOrSelf(Site.Parent);
    // The gathering kernels name the child's specialization as the launch
    // writes it, which may name the function template's parameters.
    if ((Function->isTemplated() || Function->isTemplateInstantiation()) &&
        (Site.Child->getDescribedFunctionTemplate() || Site.Child->getPrimaryTemplate())) {
      Scopes.Refusals[Site.Id] =
          "the launch of a template kernel is in the function template '" +
          Function->getNameAsString() +
          "': the kernels that would gather it cannot name the child's template arguments";
      continue;
    }
    if (!Only || Only->count(Function))
      SitesIn[Function].push_back(Site.Id);
  }
  if (SitesIn.empty())
    return Scopes;
  MainFileKernels Collector(Ctx.getSourceManager());
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::map<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>> KernelsOf;
  for (const auto &[Function, Sites] : SitesIn) {
    std::string Problem;
    std::vector<const clang::FunctionDecl *> Kernels =
        kernelsReaching(Ctx, Collector.Kernels, Function, Problem);
    std::string Name = Function->getNameAsString();
    if (Kernels.empty()) {
      std::string Why =
          "the launch is in the device function '" + Name + "', " +
          (Problem.empty() ? "which no kernel of this file calls (directly or "
                             "through other device functions): no block gathers "
                             "its launches"
                           : "and no kernel's copy can call a copy of it: " + Problem);
      for (unsigned Id : Sites)
        Scopes.Refusals[Id] = Why;
      continue;
    }
    KernelsOf[Function] = Kernels;
    Scopes.Functions.insert(Function);
  }
  // Copying them all at once may refuse what one alone allowed (a function
  // calling another copied one in a macro): such a kernel drops out.
  Shadows.alsoCopy(Scopes.Functions);
  std::set<const clang::FunctionDecl *> Refused;
  for (auto &[Function, Kernels] : KernelsOf)
    for (const clang::FunctionDecl *K : Kernels)
      if (!Refused.count(K))
        if (llvm::Error Why = Shadows.require(*K)) {
          llvm::consumeError(std::move(Why));
          Refused.insert(K);
        }
  for (auto &[Function, Kernels] : KernelsOf) {
    llvm::erase_if(Kernels, [&](const clang::FunctionDecl *K) { return Refused.count(K) > 0; });
    for (unsigned Id : SitesIn[Function]) {
      if (Kernels.empty())
        Scopes.Refusals[Id] = "the launch is in the device function '" +
                              Function->getNameAsString() +
                              "', and the copies of the kernels that call it cannot call copies "
                              "of all the device functions that launch";
      else
        Scopes.KernelsOf[Id] = Kernels;
    }
  }
  return Scopes;
}

} // namespace launchopt

#include "DeviceWaits.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace launchopt {

std::string deviceWaitAdvice() {
  return "device code cannot call cudaDeviceSynchronize() since CUDA 12: dynamic parallelism on "
         "sm_90 (CDP2) has no device-side wait for child grids, and launchopt does not rewrite "
         "such waits; move the code that reads the children's results into a kernel launched "
         "with cudaStreamTailLaunch (it starts after the parent grid and all its children) or "
         "into the host after the parent's launch";
}

std::string positionText(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  clang::PresumedLoc Where = SM.getPresumedLoc(SM.getSpellingLoc(Loc));
  if (!Where.isValid())
    return "";
  return std::string(Where.getFilename()) + ":" + std::to_string(Where.getLine()) + ":" +
         std::to_string(Where.getColumn());
}

namespace {

class DeviceWaitFinder : public clang::RecursiveASTVisitor<DeviceWaitFinder> {
public:
  explicit DeviceWaitFinder(clang::ASTContext &Context) : Context(Context) {}

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    const clang::FunctionDecl *Outer = Function;
    unsigned OuterCount = Count;
    Function =
        F->hasAttr<clang::CUDADeviceAttr>() && F->hasAttr<clang::CUDAHostAttr>() ? F : nullptr;
    Count = 0;
    bool Continue = RecursiveASTVisitor::TraverseFunctionDecl(F);
    Function = Outer;
    Count = OuterCount;
    return Continue;
  }

  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    if (!Function || !Callee || !Callee->getIdentifier() ||
        Callee->getName() != "cudaDeviceSynchronize")
      return true;
    const clang::SourceManager &SM = Context.getSourceManager();
    clang::SourceLocation Loc = SM.getSpellingLoc(Call->getBeginLoc());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      return true;
    std::string Where = positionText(SM, Loc);
    if (Where.empty())
      return true;
    Found.push_back({Where, SM.getFilename(Loc).str() + "|" + Function->getQualifiedNameAsString() +
                                "|" + std::to_string(Count++)});
    return true;
  }

  std::vector<DeviceWait> Found;

private:
  clang::ASTContext &Context;
  const clang::FunctionDecl *Function = nullptr; // the host-device function being walked
  unsigned Count = 0;                            // its waits so far
};

} // namespace

std::vector<DeviceWait> deviceWaitsInHostDeviceFunctions(clang::ASTContext &Context) {
  DeviceWaitFinder Finder(Context);
  Finder.TraverseDecl(Context.getTranslationUnitDecl());
  return std::move(Finder.Found);
}

} // namespace launchopt

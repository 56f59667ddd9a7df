#include "PlainBuild.h"

#include "Analysis/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace launchopt {

namespace {

bool compiledForDeviceOnly(const clang::FunctionDecl *F) {
  return F->hasAttr<clang::CUDAGlobalAttr>() ||
         (F->hasAttr<clang::CUDADeviceAttr>() && !F->hasAttr<clang::CUDAHostAttr>());
}

class RuntimeCalls : public clang::RecursiveASTVisitor<RuntimeCalls> {
public:
  explicit RuntimeCalls(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  bool TraverseDecl(clang::Decl *D) {
    auto *F = llvm::dyn_cast_or_null<clang::FunctionDecl>(D);
    if (!F)
      return clang::RecursiveASTVisitor<RuntimeCalls>::TraverseDecl(D);
    // A lambda's call operator inside a kernel is device code too.
    bool Outer = InDevice, OuterHostDevice = HostDevice;
    bool Device = compiledForDeviceOnly(F);
    InDevice = Device || (InDevice && llvm::isa<clang::CXXMethodDecl>(F));
    HostDevice = F->hasAttr<clang::CUDADeviceAttr>() && F->hasAttr<clang::CUDAHostAttr>();
    bool Go = clang::RecursiveASTVisitor<RuntimeCalls>::TraverseDecl(D);
    InDevice = Outer;
    HostDevice = OuterHostDevice;
    return Go;
  }

  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    const clang::SourceManager &SM = Ctx.getSourceManager();
    if (!(InDevice || HostDevice) || !Callee || llvm::isa<clang::CUDAKernelCallExpr>(Call) ||
        !SM.isInMainFile(SM.getExpansionLoc(Call->getBeginLoc())) ||
        !Callee->getName().starts_with("cuda") || !SM.isInSystemHeader(Callee->getLocation()))
      return true;
    llvm::StringRef Name = Callee->getName();
    std::optional<FileRange> Range = writtenRange(Ctx, Call->getSourceRange());
    if (InDevice && Range && (Name == "cudaGetLastError" || Name == "cudaPeekAtLastError")) {
      Use.ErrorQueries.push_back({Range->Begin, Range->End - Range->Begin, "cudaSuccess"});
      return true;
    }
    Use.OtherCalls.push_back(Name.str() + " at line " +
                             std::to_string(SM.getPresumedLineNumber(Call->getBeginLoc())));
    return true;
  }

  DeviceRuntimeUse Use;

private:
  clang::ASTContext &Ctx;
  bool InDevice = false;
  bool HostDevice = false;
};

} // namespace

DeviceRuntimeUse deviceRuntimeUse(clang::ASTContext &Ctx) {
  RuntimeCalls Visitor(Ctx);
  Visitor.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Visitor.Use;
}

} // namespace launchopt

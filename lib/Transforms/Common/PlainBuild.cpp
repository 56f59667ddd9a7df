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

// The local stream that a call creates (`&s`) or destroys (`s`).
const clang::VarDecl *lifetimeStream(llvm::StringRef Name, const clang::Expr *First) {
  const clang::Expr *E = First->IgnoreParenImpCasts();
  if (Name == "cudaStreamCreate" || Name == "cudaStreamCreateWithFlags") {
    auto *Address = llvm::dyn_cast<clang::UnaryOperator>(E);
    if (!Address || Address->getOpcode() != clang::UO_AddrOf)
      return nullptr;
    E = Address->getSubExpr()->IgnoreParenImpCasts();
  } else if (Name != "cudaStreamDestroy") {
    return nullptr;
  }
  auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
  auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->isLocalVarDecl() ? Var : nullptr;
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
    const clang::FunctionDecl *OuterFunction = Function;
    Function = F;
    bool Device = compiledForDeviceOnly(F);
    InDevice = Device || (InDevice && llvm::isa<clang::CXXMethodDecl>(F));
    HostDevice = F->hasAttr<clang::CUDADeviceAttr>() && F->hasAttr<clang::CUDAHostAttr>();
    bool Go = clang::RecursiveASTVisitor<RuntimeCalls>::TraverseDecl(D);
    InDevice = Outer;
    HostDevice = OuterHostDevice;
    Function = OuterFunction;
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
    std::string Where =
        Name.str() + " at line " + std::to_string(SM.getPresumedLineNumber(Call->getBeginLoc()));
    if (InDevice && !Range && (Name == "cudaGetLastError" || Name == "cudaPeekAtLastError"))
      Use.MacroErrorQueries.insert(Use.OtherCalls.size());
    if (InDevice && Range && Call->getNumArgs() > 0)
      if (const clang::VarDecl *Stream = lifetimeStream(Name, Call->getArg(0)))
        Use.StreamLifetimes.push_back(
            {Stream,
             {Range->Begin, Range->End - Range->Begin, "launchopt::persistent::streamUnused()"},
             Where});
    Use.OtherCalls.push_back(Where);
    Use.OtherCallers.push_back(Function);
    return true;
  }

  DeviceRuntimeUse Use;

private:
  clang::ASTContext &Ctx;
  bool InDevice = false;
  bool HostDevice = false;
  const clang::FunctionDecl *Function = nullptr;
};

} // namespace

std::pair<std::string, std::string> errorQueryMacros() {
  return {"// launchopt: nothing below launches: an error query a macro writes is cudaSuccess.\n"
          "#define cudaGetLastError() cudaSuccess\n#define cudaPeekAtLastError() cudaSuccess\n",
          "\n#undef cudaGetLastError\n#undef cudaPeekAtLastError"};
}

DeviceRuntimeUse deviceRuntimeUse(clang::ASTContext &Ctx) {
  RuntimeCalls Visitor(Ctx);
  Visitor.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Visitor.Use;
}

} // namespace launchopt

#include "ProgramKernels.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace launchopt {

namespace {

class KernelDefinitionCollector : public clang::RecursiveASTVisitor<KernelDefinitionCollector> {
public:
  explicit KernelDefinitionCollector(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    if (!F->isThisDeclarationADefinition() || !F->hasAttr<clang::CUDAGlobalAttr>() ||
        !SM.isInMainFile(SM.getExpansionLoc(F->getLocation())) || F->isTemplateInstantiation() ||
        !F->isExternallyVisible())
      return true;
    Definitions.emplace(programKernelKey(*F), F);
    return true;
  }

  std::map<std::string, const clang::FunctionDecl *> Definitions;

private:
  clang::ASTContext &Ctx;
};

} // namespace

std::string programKernelKey(const clang::FunctionDecl &F) {
  std::string Key = F.getQualifiedNameAsString() + " ";
  if (const clang::FunctionTemplateDecl *T = F.getPrimaryTemplate())
    return programKernelKey(*T->getTemplatedDecl());
  if (F.getDescribedFunctionTemplate())
    Key += "template ";
  return Key + F.getType().getCanonicalType().getAsString();
}

std::map<std::string, const clang::FunctionDecl *>
programKernelDefinitions(clang::ASTContext &Ctx) {
  KernelDefinitionCollector Collector(Ctx);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Collector.Definitions);
}

} // namespace launchopt

#include "IncludedFileCopies.h"

#include "Refusal.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include <optional>

namespace launchopt {

clang::FileID includedFileOf(const clang::ASTContext &Ctx, const clang::FunctionDecl &Def) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Loc = Def.getBody() ? Def.getBody()->getBeginLoc() : Def.getLocation();
  if (Loc.isMacroID())
    return clang::FileID();
  clang::FileID File = SM.getFileID(Loc);
  return File == SM.getMainFileID() ? clang::FileID() : File;
}

namespace {

std::optional<unsigned> afterIncludeLine(const clang::ASTContext &Ctx, clang::FileID File) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Loc = SM.getIncludeLoc(File);
  while (Loc.isValid() && SM.getFileID(Loc) != SM.getMainFileID())
    Loc = SM.getIncludeLoc(SM.getFileID(Loc));
  if (Loc.isInvalid() || !Loc.isFileID())
    return std::nullopt;
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  size_t End = Buffer.find('\n', SM.getFileOffset(Loc));
  return End == llvm::StringRef::npos ? Buffer.size() : End + 1;
}

llvm::Error namespacesAround(const clang::FunctionDecl &Def, std::string &Open,
                             std::string &Close) {
  const clang::DeclContext *Scope = Def.getDeclContext();
  if (llvm::isa<clang::CXXMethodDecl>(Def))
    Scope = Scope->getParent();
  for (const clang::DeclContext *C = Scope; !C->isTranslationUnit(); C = C->getParent()) {
    if (llvm::isa<clang::LinkageSpecDecl>(C))
      continue;
    auto *N = llvm::dyn_cast<clang::NamespaceDecl>(C);
    if (!N)
      return refusal("is a class member defined in an included file");
    Open = std::string(N->isInline() ? "inline " : "") + "namespace " +
           (N->isAnonymousNamespace() ? "" : N->getNameAsString() + " ") + "{\n" + Open;
    Close += "}\n";
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<IncludedPlacement> namespacePlacement(const clang::FunctionDecl &Def,
                                                     unsigned Offset) {
  IncludedPlacement P;
  P.Offset = Offset;
  if (llvm::Error Enclosed = namespacesAround(Def, P.NamespacesOpen, P.NamespacesClose))
    return std::move(Enclosed);
  return P;
}

std::optional<unsigned> topLevelStart(const clang::ASTContext &Ctx,
                                      const clang::FunctionDecl &Def) {
  const clang::Decl *Outer = &Def;
  if (const clang::FunctionTemplateDecl *T = Def.getDescribedFunctionTemplate())
    Outer = T;
  for (const clang::DeclContext *C = Def.getDeclContext(); !C->isTranslationUnit();
       C = C->getParent())
    if (auto *D = llvm::dyn_cast<clang::Decl>(C))
      Outer = D;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  // `__global__` first is a macro: its expansion is where the text starts.
  clang::SourceLocation Begin = SM.getExpansionLoc(Outer->getBeginLoc());
  if (Begin.isInvalid() || !SM.isInMainFile(Begin))
    return std::nullopt;
  return SM.getFileOffset(Begin);
}

llvm::Expected<IncludedPlacement> placementOf(const clang::ASTContext &Ctx,
                                              const clang::FunctionDecl &Def, clang::FileID In) {
  std::optional<unsigned> After = afterIncludeLine(Ctx, In);
  if (!After)
    return refusal("is defined in a file this file does not #include");
  IncludedPlacement P;
  P.Offset = *After;
  if (llvm::Error Enclosed = namespacesAround(Def, P.NamespacesOpen, P.NamespacesClose))
    return std::move(Enclosed);
  return P;
}

} // namespace launchopt

#include "MemberShadows.h"

#include "Refusal.h"
#include "Analysis/SourceText.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringExtras.h"

namespace launchopt {

namespace {

std::string className(const clang::CXXMethodDecl &Def) {
  return Def.getParent()->getNameAsString();
}

} // namespace

std::string classInCopy(const clang::CXXMethodDecl &Def) {
  std::string Class = className(Def);
  if (const clang::ClassTemplateDecl *T = Def.getParent()->getDescribedClassTemplate()) {
    std::vector<std::string> Names;
    for (const clang::NamedDecl *P : *T->getTemplateParameters())
      Names.push_back(P->getName().str() + (P->isParameterPack() ? "..." : ""));
    Class += "<" + llvm::join(Names, ", ") + ">";
  }
  return Class;
}

bool copiedOutsideClass(const clang::ASTContext &Ctx, const clang::FunctionDecl &Def) {
  if (!llvm::isa<clang::CXXMethodDecl>(Def))
    return false;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Loc = Def.getBody() ? Def.getBody()->getBeginLoc() : Def.getLocation();
  return SM.getFileID(SM.getExpansionLoc(Loc)) != SM.getMainFileID();
}

llvm::Error checkCopyableMember(const clang::ASTContext &Ctx, const clang::CXXMethodDecl &Def) {
  if (Def.isVirtual())
    return refusal("is a virtual member function (a copy would not override)");
  if (Def.isOverloadedOperator())
    return refusal("is an operator");
  if (llvm::isa<clang::CXXConstructorDecl>(Def) || llvm::isa<clang::CXXDestructorDecl>(Def) ||
      llvm::isa<clang::CXXConversionDecl>(Def))
    return refusal("is a constructor, destructor or conversion");
  if (Def.getRefQualifier() != clang::RQ_None || Def.isVolatile())
    return refusal("is a member function with a reference or volatile qualifier");
  if (Def.isOutOfLine())
    return refusal("is a member function defined outside its class");
  if (!copiedOutsideClass(Ctx, Def))
    return llvm::Error::success();
  const clang::CXXRecordDecl *Class = Def.getParent();
  if (Class->getName().empty())
    return refusal("is a member of an unnamed class defined in an included file");
  if (!Class->getDeclContext()->getRedeclContext()->isFileContext())
    return refusal("is a member of a nested or local class defined in an included file");
  if (llvm::isa<clang::ClassTemplatePartialSpecializationDecl>(Class) ||
      llvm::isa<clang::ClassTemplateSpecializationDecl>(Class))
    return refusal("is a member of a class template specialization defined in an included file");
  bool ClassTemplate = Class->getDescribedClassTemplate() != nullptr;
  if (ClassTemplate && Def.getDescribedFunctionTemplate())
    return refusal("is a member template of a class template defined in an included file");
  if (ClassTemplate && Def.isStatic())
    return refusal("is a static member of a class template defined in an included file (its "
                   "copy's template arguments could not be deduced)");
  return llvm::Error::success();
}

llvm::Expected<OutsideClassCopy>
outsideClassCopy(const clang::ASTContext &Ctx, const clang::CXXMethodDecl &Def, clang::FileID In) {
  OutsideClassCopy Out;
  Out.Class = classInCopy(Def);
  if (const clang::ClassTemplateDecl *T = Def.getParent()->getDescribedClassTemplate()) {
    const clang::TemplateParameterList *Params = T->getTemplateParameters();
    std::optional<FileRange> Header = spelledRange(Ctx, Params->getSourceRange(), In);
    if (!Header)
      return refusal("is a member of a class template whose parameters come from a macro");
    for (const clang::NamedDecl *P : *Params)
      if (P->getName().empty())
        return refusal("is a member of a class template with an unnamed parameter");
    Out.TemplateHeader = textOf(Ctx, *Header) + "\n";
  }
  if (!Def.isStatic())
    Out.SelfParameter =
        std::string(Def.isConst() ? "const " : "") + Out.Class + " &" + generated::ShadowSelf;
  return std::move(Out);
}

std::string qualifiedOutsideClassName(const clang::CXXMethodDecl &Def) {
  std::string Scope;
  for (const clang::DeclContext *C = Def.getParent()->getDeclContext(); !C->isTranslationUnit();
       C = C->getParent())
    if (auto *N = llvm::dyn_cast<clang::NamespaceDecl>(C))
      if (!N->isAnonymousNamespace())
        Scope = N->getNameAsString() + "::" + Scope;
  return "::" + Scope + generated::shadowMemberCopy(className(Def), Def.getNameAsString());
}

} // namespace launchopt

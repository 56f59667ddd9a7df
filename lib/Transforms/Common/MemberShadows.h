#ifndef LAUNCHOPT_TRANSFORMS_COMMON_MEMBERSHADOWS_H
#define LAUNCHOPT_TRANSFORMS_COMMON_MEMBERSHADOWS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// Shadow copies of member functions (see ShadowCallees). A member of a class
// written in the main file gets its copy as a member right after it, inside
// the class, so that private access keeps compiling. A header cannot be
// edited: a member of a class written in one gets its copy as a free
// function after the #include, taking the object as a parameter
// (generated::ShadowSelf), with `this` in the copied body rewritten through
// it; it can only touch the class's public members.

// Whether Def's shadow copy is a free function outside its class.
bool copiedOutsideClass(const clang::ASTContext &Ctx, const clang::FunctionDecl &Def);

// Why the member function Def cannot have a shadow copy, or success: the end
// of a remark "... which reads the built-in index variables and <it>".
llvm::Error checkCopyableMember(const clang::ASTContext &Ctx, const clang::CXXMethodDecl &Def);

// The pieces of a free copy of Def (copiedOutsideClass): the template header
// of its class template ("template <typename T>\n", or empty), the object
// parameter ("const Graph<T> &__lo_self", empty for a static member) and the
// class as the copied body names it ("Graph<T>").
struct OutsideClassCopy {
  std::string TemplateHeader;
  std::string SelfParameter;
  std::string Class;
};
llvm::Expected<OutsideClassCopy>
outsideClassCopy(const clang::ASTContext &Ctx, const clang::CXXMethodDecl &Def, clang::FileID In);

// The class as a free copy of its member Def names it: "Graph<T>".
std::string classInCopy(const clang::CXXMethodDecl &Def);

// The free copy's name as a call from anywhere writes it: `::ns::__lo_sh_C_m`.
std::string qualifiedOutsideClassName(const clang::CXXMethodDecl &Def);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_COMMON_INCLUDEDFILECOPIES_H
#define LAUNCHOPT_TRANSFORMS_COMMON_INCLUDEDFILECOPIES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace launchopt {

// Copies of functions defined in an included header: the header is never
// edited, so a copy goes into the main file right after the #include that
// brings the header in, inside the function's namespaces.

// The file a definition's body is written in when it is not the main file
// (an included header), else an invalid FileID.
clang::FileID includedFileOf(const clang::ASTContext &Ctx, const clang::FunctionDecl &Def);

// Where a copy of a function of an included header goes, and the namespaces
// it is written in.
struct IncludedPlacement {
  unsigned Offset = 0;
  std::string NamespacesOpen, NamespacesClose;
};

// The placement of copies of Def, defined in the included file In: just past
// the line of the main file's #include that brings In in (through other
// headers perhaps), in Def's namespaces; an error when the main file does
// not include it or a class or function encloses Def.
llvm::Expected<IncludedPlacement> placementOf(const clang::ASTContext &Ctx,
                                              const clang::FunctionDecl &Def, clang::FileID In);

// Declarations of copies of Def at Offset of the main file, a place at file
// scope before code of another namespace that calls them: Def's namespaces
// reopened there. An error when a class or function encloses Def.
llvm::Expected<IncludedPlacement> namespacePlacement(const clang::FunctionDecl &Def,
                                                     unsigned Offset);

// Where the top-level declaration that holds Def starts in the main file
// (the outermost namespace around it, or Def itself at file scope).
std::optional<unsigned> topLevelStart(const clang::ASTContext &Ctx, const clang::FunctionDecl &Def);

} // namespace launchopt

#endif

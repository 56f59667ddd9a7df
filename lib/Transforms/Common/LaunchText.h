#ifndef LAUNCHOPT_TRANSFORMS_COMMON_LAUNCHTEXT_H
#define LAUNCHOPT_TRANSFORMS_COMMON_LAUNCHTEXT_H

#include "Analysis/LaunchSites.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// A launch statement as the user wrote it, in pieces a pass reassembles:
// `Callee<<<Grid, Block, SharedMemory, Stream>>>(Arguments);`
struct LaunchText {
  FileRange Statement; // the launch and its semicolon
  std::string Indent;  // of the line the launch starts on
  std::string Callee;  // `ns::child<T>`
  std::string Grid, Block;
  // Where Grid was read from, when it is the text there as written (a
  // launch a macro writes may have its grid printed instead).
  std::optional<FileRange> GridRange;
  std::string SharedMemory, Stream; // empty when omitted
  std::string Arguments;            // empty when there are none
  // Each argument on its own; empty when one of them cannot be read alone.
  std::vector<std::string> ArgumentTexts;

  // The configuration after grid and block: ", shmem, stream" or "".
  std::string trailingConfig() const;
  // Arguments followed by ", " when there are any.
  std::string argumentsThen() const { return Arguments.empty() ? "" : Arguments + ", "; }
};

// Fails when the launch cannot be replaced as a statement, the error's
// message the remark's text: it is written in a macro, its value is used,
// its name or operands come from macros, or it relies on the child's
// default arguments.
llvm::Expected<LaunchText> readLaunchText(clang::ASTContext &Ctx, const LaunchSite &Site);

// The kernel name as written at the launch with Prefix added to the name:
// `ns::child<T>` -> `ns::<Prefix>child<T>`. Fails when the name comes from a
// macro. With SpellDeduced, every template argument of the launched
// specialization is written out (`child` -> `<Prefix>child<float>`), for
// generated functions that cannot deduce them from the launch's arguments;
// that fails in a template where the launch leaves some to deduction.
llvm::Expected<std::string> prefixedCallee(const clang::ASTContext &Ctx, const LaunchSite &Site,
                                           const std::string &Prefix, bool SpellDeduced = false);

// The qualifier the launch writes before the kernel's name (`ns::` in
// `ns::child<T>`), or "" when it names it plainly or from a macro.
std::string writtenQualifier(const clang::ASTContext &Ctx, const LaunchSite &Site);

// The template arguments a launch gives the child as prefixedCallee writes
// them (`<V, (int)128>`), or "" when it gives none or they cannot be named.
std::string launchTemplateArguments(const clang::ASTContext &Ctx, const LaunchSite &Site);

// Where new definitions for a kernel go when a parent written before it
// needs them: the start of the parent (its template header included).
unsigned definitionStart(const clang::ASTContext &Ctx, const clang::FunctionDecl &F);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_TRANSFORMS_COMMON_LAUNCHACCEPTANCE_H
#define LAUNCHOPT_TRANSFORMS_COMMON_LAUNCHACCEPTANCE_H

// The one path by which a pass that replaces a device-side launch decides to
// take it, so that every pass refuses the same launch for the same reason,
// in the same words, and checks in the same order:
//   1. the pass's own refusal (what it cannot do with this launch, its child
//      or its parent);
//   2. the launch's text (readLaunchText);
//   3. the child's definition, and the parent's when the pass rewrites it too
//      (readKernel);
//   4. the pass writes its copy of the child after the child, and declares it
//      before a parent written earlier, in the parent's namespace: the
//      child's parameter types must mean the same there (sameNamespace);
//   5. the name the new launch calls, written like the launched one:
//      `ns::child<T>` -> `ns::<prefix>child<T>`.
// What the pass then writes, and its remark, are its own.

#include "Transforms/Common/IncludedFileCopies.h"
#include "Transforms/Common/KernelCopy.h"
#include "Transforms/Common/LaunchText.h"
#include "Transforms/Common/Refusal.h"
#include "Transforms/Common/ShadowCallees.h"
#include "Transforms/PassResult.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// What a pass asks of the acceptance steps.
struct AcceptanceSteps {
  // The prefix of the kernel or function the new launch calls by the
  // launched name (generated::threshold::SerialPrefix). Empty when the pass
  // names what it calls itself (aggregation): the launched name is then read
  // for its template arguments only and need not be rewritable.
  std::string CalleePrefix;
  // The pass rewrites the parent's text too (aggregation replaces its body).
  bool ReadParent = false;
  // The pass writes its copies of a child defined in an included header
  // where AcceptedLaunch::ChildInHeader says (thresholding's serial copy);
  // otherwise such a child is refused.
  bool ChildInIncludedFile = false;
  // The pass names types or variables after the child (argument records):
  // a child whose name another kernel overloads is refused.
  bool NamesAfterChild = false;
};

// A launch the common steps take, with what they read of it.
struct AcceptedLaunch {
  LaunchText Text;
  KernelCopy Child;
  std::optional<KernelCopy> Parent; // read when AcceptanceSteps::ReadParent
  // The launched name with CalleePrefix added; empty without a prefix.
  std::string Callee;
  // The child's template arguments written at the launch (`<T>`), or "" when
  // the launch leaves them to deduction.
  std::string TemplateArguments;
  // Where the parent's definition starts, its template header included.
  unsigned ParentStart = 0;
  // The parent starts before the child ends (where the pass's copy goes): the
  // copy must be declared at ParentStart.
  bool NeedsPrototype = false;
  // A child of another namespace defined after the parent: where the copy's
  // declaration goes (before the parent's top-level declaration, in the
  // child's namespaces reopened); insertPrototype uses it.
  std::optional<IncludedPlacement> PrototypeInNamespace;
  // A child defined in an included header: where its copies go in this file.
  // Its Child text is the header's, which no edit of this file reaches.
  std::optional<IncludedPlacement> ChildInHeader;
};

// Inserts Prototype (a declaration of a copy of the child) where the parent
// can see it: at ParentStart, or in the child's namespaces before the
// parent's top-level declaration (PrototypeInNamespace).
void insertPrototype(SourceEdits &Edits, const AcceptedLaunch &A, const std::string &Prototype);

// For a child defined in an included header (A.ChildInHeader): where its
// copies go, recorded in Placements, and the remark's word for it.
void noteChildInHeader(const AcceptedLaunch &A, const clang::FunctionDecl *Child,
                       std::map<const clang::FunctionDecl *, IncludedPlacement> &Placements,
                       LaunchRemark &Remark);

// The launch with what the pass needs of it, or its refusal as the error
// (the remark's text). Refusal: the pass's own reason to leave the launch,
// success when it has none.
llvm::Expected<AcceptedLaunch> acceptLaunch(clang::ASTContext &Ctx, const LaunchSite &Site,
                                            llvm::Error Refusal, const AcceptanceSteps &Steps);

// What keeps a pass from writing copies of Child, a kernel of this file that
// other files launch: a callee reading the built-ins that cannot be
// shadowed, or a kernel that cannot be read (the tail of every pass's
// LaunchPass::acceptChildOfOtherFiles).
llvm::Error copiesForOtherFilesBlocker(clang::ASTContext &Ctx, const clang::FunctionDecl &Child);

// Reads the kernels that other files launch and the pass took
// (LaunchAnalysis::ExportedChildren) into Copies, those it holds already
// aside; returns the ones added.
std::vector<const clang::FunctionDecl *>
addExportedChildren(clang::ASTContext &Ctx, const LaunchAnalysis &Launches, ShadowCallees &Shadows,
                    std::map<const clang::FunctionDecl *, KernelCopy> &Copies);

// The entry of a launch whose child another file of the program defines,
// when the running pass takes such launches; else null.
const ExternalChild *acceptedExternalChild(const LaunchAnalysis &Launches, const LaunchSite &Site);

// The same steps for a launch whose child another file of the program
// defines (LaunchAnalysis::ExternalChildren) and the pass accepted there:
// the child is read from its declaration here (readKernelDeclaration), and
// the pass declares its copy before the parent (NeedsPrototype), in the
// child's namespace.
llvm::Expected<AcceptedLaunch> acceptExternalLaunch(clang::ASTContext &Ctx, const LaunchSite &Site,
                                                    const ExternalChild &Child, llvm::Error Refusal,
                                                    const AcceptanceSteps &Steps);

} // namespace launchopt

#endif

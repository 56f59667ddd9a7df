#ifndef LAUNCHOPT_DRIVER_DROPPEDLAUNCHRECOVERY_H
#define LAUNCHOPT_DRIVER_DROPPEDLAUNCHRECOVERY_H

#include "Analysis/LaunchSites.h"
#include "Frontend/Frontend.h"
#include "Rewrite/SourceEdits.h"
#include <memory>
#include <string>

namespace launchopt {

// Recovery of the device-side launches Clang 19 drops: of template kernels
// from non-template kernels, and of kernels whose name overloads share.
//
// What Clang 19 does: host-side, a __global__ caller may never call a
// __global__ callee through overload resolution (Sema's CUDA call preference
// is "never" for global -> global, since Clang does not model dynamic
// parallelism). A plain kernel name needs no overload resolution and is
// accepted; a template-id (`k<float>`, or `k` whose arguments are deduced) is
// an UnresolvedLookupExpr that must be resolved, every candidate is rejected
// ("call to __global__ function from __global__ function"), and the launch is
// kept as a RecoveryExpr holding the lookup and the arguments, without the
// `<<<...>>>` configuration and without a CUDAKernelCallExpr. In a template
// parent the launch is dependent, so the pattern keeps a CUDAKernelCallExpr
// (only the instantiation fails), which is why template parents work.
//
// The method: the file is parsed once; for each such launch whose template
// arguments are written explicitly (enough of them that nothing is left to
// deduce), the text given to the parser spells the kernel as
// `(MARK *&k<float> MARK)`, the address of the specialization dereferenced.
// Taking the address resolves a template-id naming one specialization
// without the CUDA caller check, and the launch through the resulting
// function lvalue is an ordinary CUDAKernelCallExpr whose direct callee is
// the specialization, so every analysis and pass sees a full launch. The
// markers are comments; after a pass they are removed from its output
// wherever they survived (where the pass left the launch as written, and in
// copies of the launch's text), so the output keeps the user's text except
// at the sites a pass transformed.
//
// Overloaded kernels: a device-side launch of a name several __global__
// overloads share fails the same way (every candidate is rejected). The
// driver picks the overload itself, by the number of arguments, else by
// their exact types, and declares on the parent's first line, at namespace
// scope where no caller check applies, a constexpr reference to it:
// `using __lo_ovlt1_k = void (int *, int); static constexpr __lo_ovlt1_k
// &__lo_ovl1_k = k;` (with a declaration of k itself first when it is only
// declared later, as when the parent launches itself). The launch reads
// `(*&__lo_ovl1_k)`, the written name kept in a comment beside it, and is an
// ordinary CUDAKernelCallExpr whose callee, seen through the reference
// (Analysis' launchedFunction), is the chosen overload. Both are removed from every
// output. Left unresolved, with the overload remark: a qualified name, a
// parent inside a class, and launches that neither count nor exact types
// decide.
//
// Deduced template arguments: a launch that leaves them to deduction
// (`k<<<g, b>>>(p)` with `template <class T> k(T *)` and `p` a `float *`)
// is read as `(*&k<float>)` when the arguments' types show every one
// (Transforms/Common/TemplateDeduction.h: T, T *, const T *, references),
// the written name kept in a comment as for an overload, and removed alike.
//
// Limits: a launch whose arguments do not show every template argument (a
// default left to apply, a conversion), or written inside a macro, stays
// unresolved with its remark.
struct RecoveredParse {
  // Null when the file does not parse (clang's errors were printed).
  std::unique_ptr<ParsedFile> Parsed;
  // What the parser read: the text given, with the markers inserted.
  std::string ParsedText;
  // The markers as insertions into the text given, to map positions back.
  SourceEdits Markers;
};

RecoveredParse
parseRecoveringDroppedLaunches(const clang::tooling::CompilationDatabase &Compilations,
                               const std::string &File, const ParseEnvironment &Env,
                               const std::string &Text);

// The launch positions of an analysis of R's parse, in the text given
// (Text) instead of the text with the markers.
void restoreInputPositions(const RecoveredParse &R, const std::string &Text, LaunchAnalysis &A);

// Text without the recovery markers (each pair removed together); Removed
// receives the deletions as edits of Text, to map positions back.
std::string removeRecoveryMarkers(const std::string &Text, SourceEdits &Removed);

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_FRONTEND_DEVICELAUNCHDIAGFILTER_H
#define LAUNCHOPT_FRONTEND_DEVICELAUNCHDIAGFILTER_H

#include "clang/Basic/Diagnostic.h"
#include <memory>

namespace launchopt {

// Clang 19 does not model dynamic parallelism: a device-side launch whose
// kernel needs overload resolution (a template, say) is rejected with
// "no matching function for call" at the kernel name of a `<<<...>>>` launch,
// although nvcc accepts it. This consumer drops exactly that error (and its
// notes) and forwards every other diagnostic unchanged.
class DeviceLaunchDiagFilter : public clang::DiagnosticConsumer {
public:
  explicit DeviceLaunchDiagFilter(clang::DiagnosticConsumer &Next) : Next(Next) {}

  void BeginSourceFile(const clang::LangOptions &LangOpts, const clang::Preprocessor *PP) override {
    Next.BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  unsigned forwardedErrors() const { return ForwardedErrors; }

private:
  clang::DiagnosticConsumer &Next;
  bool DroppingNotes = false;
  unsigned ForwardedErrors = 0;
};

} // namespace launchopt

#endif

#ifndef LAUNCHOPT_FRONTEND_DEVICELAUNCHDIAGFILTER_H
#define LAUNCHOPT_FRONTEND_DEVICELAUNCHDIAGFILTER_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace launchopt {

// Clang 19 does not model dynamic parallelism: a device-side launch whose
// kernel needs overload resolution (a template, say) is rejected with
// "no matching function for call" at the kernel name of a `<<<...>>>` launch,
// although nvcc accepts it. This consumer drops exactly that error (and its
// notes) and forwards every other diagnostic unchanged. It also remembers
// where device code calls cudaDeviceSynchronize(), which CUDA 12 removed from
// device code, so that the failed parse can say why (explainDeviceWaits).
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

  // A note per device-side cudaDeviceSynchronize() the parse rejected,
  // `file:line:col: note: ...`, after clang's own diagnostics.
  void explainDeviceWaits(llvm::raw_ostream &OS) const;

private:
  clang::DiagnosticConsumer &Next;
  bool DroppingNotes = false;
  unsigned ForwardedErrors = 0;
  std::vector<std::string> DeviceWaits; // "file:line:col" of each
};

} // namespace launchopt

#endif

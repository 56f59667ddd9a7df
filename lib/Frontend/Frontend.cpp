#include "Frontend.h"

#include "DeviceLaunchDiagFilter.h"
#include "DeviceOnlyLaunches.h"
#include "DeviceWaits.h"
#include "Support/ResourcePaths.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

namespace launchopt {

std::unique_ptr<ParsedFile> parseCudaFile(const clang::tooling::CompilationDatabase &Compilations,
                                          const std::string &File, const ParseEnvironment &Env,
                                          const std::string *Contents) {
  // Without the stand-ins clang's CUDA wrapper fails on a header CUDA 13
  // removed, an error that would not say what is missing.
  if (!llvm::sys::fs::is_directory(Env.CompatDir)) {
    llvm::errs() << "error: cannot find launchopt's CUDA compat headers: '" << Env.CompatDir
                 << "' is not a directory (" << resourceLookupHint() << ")\n";
    return nullptr;
  }
  clang::tooling::ClangTool Tool(Compilations, {File});
  if (Contents)
    Tool.mapVirtualFile(File, *Contents);
  Tool.appendArgumentsAdjuster(cudaParseAdjuster(Env));

  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  DiagOpts->ShowColors = false;
  clang::TextDiagnosticPrinter Printer(llvm::errs(), DiagOpts.get());
  DeviceLaunchDiagFilter Filter(Printer);
  Tool.setDiagnosticConsumer(&Filter);

  std::vector<std::unique_ptr<clang::ASTUnit>> Units;
  Tool.buildASTs(Units);
  if (Units.size() != 1 || !Units.front() || Filter.forwardedErrors() > 0) {
    Filter.explainDeviceWaits(llvm::errs());
    return nullptr;
  }

  // The parse accepts a wait in a host-device function; nvcc will not, once
  // a kernel calls it. Said once per call: every parse in a run after the
  // first is of a pass's output, which has the same calls at other lines.
  static std::set<std::string> Warned;
  for (const DeviceWait &Wait : deviceWaitsInHostDeviceFunctions(Units.front()->getASTContext()))
    if (Warned.insert(Wait.Key).second)
      llvm::errs() << Wait.Where << ": warning: " << deviceWaitAdvice()
                   << " (this function calls it on the device if a kernel calls the function)\n";

  static std::set<std::string> WarnedUnseen;
  for (const DeviceOnlyLaunch &Launch : deviceOnlyLaunches(Units.front()->getASTContext()))
    if (WarnedUnseen.insert(Launch.Key).second)
      llvm::errs() << Launch.Where << ": warning: " << deviceOnlyLaunchAdvice(Launch) << "\n";

  // The filter and printer live on this stack frame; later users of the
  // unit's diagnostics engine must not reach them.
  Units.front()->getDiagnostics().setClient(new clang::IgnoringDiagConsumer(),
                                            /*ShouldOwnClient=*/true);
  auto Parsed = std::make_unique<ParsedFile>();
  Parsed->Unit = std::move(Units.front());
  Parsed->MainFile = File;
  return Parsed;
}

} // namespace launchopt

#include "Frontend.h"

#include "DeviceLaunchDiagFilter.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"

namespace launchopt {

std::unique_ptr<ParsedFile> parseCudaFile(const clang::tooling::CompilationDatabase &Compilations,
                                          const std::string &File, const ParseEnvironment &Env,
                                          const std::string *Contents) {
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
  if (Units.size() != 1 || !Units.front() || Filter.forwardedErrors() > 0)
    return nullptr;

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

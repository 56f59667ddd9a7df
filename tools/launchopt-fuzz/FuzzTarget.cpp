// libFuzzer entry over launchopt's front half and every pass: the input
// bytes are one CUDA source file, parsed in memory as the driver parses it
// (with the template-launch recovery), analysed, and given to each
// registered pass with each of its tuned flag values, once with and once
// without --assume-independent-children. Each pass's edits are applied to
// the parsed text; the outputs are discarded. What the fuzzer looks for is
// a crash or a sanitizer report anywhere on that path (scripts/fuzz.sh).

#include "Driver/CommandSupport.h"
#include "Driver/DroppedLaunchRecovery.h"
#include "Transforms/LaunchPass.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace launchopt;

// The flag values the tuner sweeps (Passes.def), by pass folder.
std::map<std::string, std::vector<std::string>> tunedValues() {
  std::map<std::string, std::vector<std::string>> Values;
#define LAUNCHOPT_TUNE_VARIANT(Pass, List, Noun, Grammar, Swept, Start, Example)                   \
  for (llvm::StringRef Value : llvm::split(Swept, ','))                                            \
    Values[#Pass].push_back(Value.str());
#include "Transforms/Passes.def"
  return Values;
}

// Every pass of the registry, made once per flag value (a pass without a
// swept value runs with the one its coverage summary uses) and per setting
// of --assume-independent-children.
std::vector<std::unique_ptr<LaunchPass>> makeAllPasses() {
  std::map<std::string, std::vector<std::string>> Swept = tunedValues();
  std::vector<std::unique_ptr<LaunchPass>> Passes;
  for (const RegisteredPass &Pass : registeredPasses()) {
    std::vector<std::string> Values = Swept.count(Pass.Id)
                                          ? Swept[Pass.Id]
                                          : std::vector<std::string>{Pass.Description.SummaryValue};
    for (const std::string &Value : Values)
      for (bool Independent : {false, true}) {
        PassArguments Arguments = Pass.defaultArguments();
        Arguments.Value = Value;
        Arguments.Shared.AssumeIndependentChildren = Independent;
        llvm::Expected<std::unique_ptr<LaunchPass>> Made = Pass.Description.Create(Arguments);
        if (!Made) {
          // A registry value the pass refuses is a defect of the registry.
          llvm::errs() << "launchopt-fuzz: --" << Pass.Flag << "=" << Value << ": "
                       << llvm::toString(Made.takeError()) << "\n";
          abort();
        }
        Passes.push_back(std::move(*Made));
      }
  }
  return Passes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const clang::tooling::FixedCompilationDatabase Compilations(".", {});
  static const ParseEnvironment Env = parseEnvironmentFor("");
  static const std::vector<std::unique_ptr<LaunchPass>> Passes = makeAllPasses();
  // A path no file has: the text is mapped in memory, never read from disk.
  static const std::string Input = "/launchopt-fuzz/input.cu";

  std::string Text(reinterpret_cast<const char *>(Data), Size);
  RecoveredParse Recovered = parseRecoveringDroppedLaunches(Compilations, Input, Env, Text);
  if (!Recovered.Parsed)
    return 0; // clang's errors: launchopt writes nothing, as the driver does
  clang::ASTContext &Ctx = Recovered.Parsed->Unit->getASTContext();
  LaunchAnalysis Launches = analyzeLaunches(Ctx);
  for (const std::unique_ptr<LaunchPass> &Pass : Passes) {
    PassResult Result = Pass->run(Ctx, Launches);
    llvm::Expected<std::string> Output = Result.Edits.apply(Recovered.ParsedText);
    // The driver reports this as an internal error: edits that do not fit
    // the text are a defect of the pass, as a crash is.
    if (!Output) {
      llvm::errs() << "launchopt-fuzz: edits do not apply: " << llvm::toString(Output.takeError())
                   << "\n";
      abort();
    }
  }
  return 0;
}

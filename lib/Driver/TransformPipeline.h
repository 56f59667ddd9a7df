#ifndef LAUNCHOPT_DRIVER_TRANSFORMPIPELINE_H
#define LAUNCHOPT_DRIVER_TRANSFORMPIPELINE_H

#include "DroppedLaunchRecovery.h"
#include "Frontend/CompilerFlags.h"
#include "Transforms/LaunchPass.h"
#include "Transforms/PassResult.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// Launch sites a pass must leave as written, per input file (by index in the
// program) and input position (line, column), with the reason for its
// remark. Later passes find such a site at the same input position.
using LeftSites = std::vector<std::map<std::pair<unsigned, unsigned>, std::string>>;

// The passes that run, in the registry's order, each made with its options.
struct PipelineOptions {
  std::vector<std::shared_ptr<const LaunchPass>> Passes;
  // The sites a pass leaves (the plan of --auto); a pass not listed may take
  // every site, as may every pass a launch in code an earlier pass generated.
  std::map<const LaunchPass *, LeftSites> Left;
  // Replace `#include <launchopt/...>` with the runtime header itself.
  bool EmbedRuntime = true;
};

struct PipelineOutput {
  std::string Text;
  // Positions name places in the input text, whichever pass made them.
  std::vector<LaunchRemark> Remarks;
};

// Runs the chosen passes on Text (the contents of Input), each on the text the
// previous one produced, as separate source-to-source steps. The error says
// why nothing can be written.
llvm::Expected<PipelineOutput>
runTransformPipeline(const clang::tooling::CompilationDatabase &Compilations,
                     const std::string &Input, const std::string &Text, const ParseEnvironment &Env,
                     const PipelineOptions &Options);

// One file of a program that launchopt transforms as a whole.
struct ProgramSource {
  std::string Path;
  std::string Text;
};

// The same for the files of one program (separate compilation, -rdc), one
// output per file in their order: each pass runs on every file, and a
// launch of a child that another file defines is rewritten where it is,
// with the pass's copies of the child written into the defining file's
// output (LaunchPass::acceptChildOfOtherFiles). Outputs that use the record
// pool share one.
llvm::Expected<std::vector<PipelineOutput>>
runProgramPipeline(const clang::tooling::CompilationDatabase &Compilations,
                   const std::vector<ProgramSource> &Sources, const ParseEnvironment &Env,
                   const PipelineOptions &Options);

// Tells each file's analysis (Launches, one per file of Sources, parsed in
// Parsed) which of its launches name a child that another file of the
// program defines, and whether Pass takes them (asked of the defining file,
// whose analysis then lists the child among those it exports). The remark
// of a launch the pass leaves names the file. The transform and the
// coverage summary both link this way, so that they agree.
void linkProgramLaunches(const LaunchPass &Pass, const std::vector<ProgramSource> &Sources,
                         const std::vector<RecoveredParse> &Parsed,
                         std::vector<LaunchAnalysis> &Launches);

// Why a device-side launch the analysis could not resolve (a template kernel
// launched from a non-template kernel, an overloaded kernel) is left untouched.
std::string unresolvedLaunchReason(const UnresolvedLaunch &U);

// Why a launch written in an included file is left as written.
std::string includedFileLaunchReason(const IncludedFileLaunch &L);

// The pipeline of the registered passes whose flags Chosen names (with their
// arguments), in the registry's order whatever order Chosen has; the error
// is the first pass's usage error.
llvm::Expected<PipelineOptions>
makePipeline(const std::vector<std::pair<const RegisteredPass *, PassArguments>> &Chosen);

} // namespace launchopt

#endif

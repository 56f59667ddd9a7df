#ifndef LAUNCHOPT_DRIVER_TRANSFORMPIPELINE_H
#define LAUNCHOPT_DRIVER_TRANSFORMPIPELINE_H

#include "Frontend/CompilerFlags.h"
#include "Transforms/Aggregate/AggregatePass.h"
#include "Transforms/Coarsen/CoarsenPass.h"
#include "Transforms/PassResult.h"
#include "Transforms/Threshold/ThresholdPass.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// Which of T, C, A run (in that order) and with what options.
struct PipelineOptions {
  std::optional<ThresholdOptions> Threshold;
  std::optional<CoarsenOptions> Coarsen;
  std::optional<AggregateOptions> Aggregate;
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

// "warp", "block", "grid" or "multiblock:N" (N > 0) into Options; false otherwise.
bool parseAggregationGranularity(llvm::StringRef Text, AggregateOptions &Options);

} // namespace launchopt

#endif

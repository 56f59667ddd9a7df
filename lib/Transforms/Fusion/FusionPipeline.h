#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONPIPELINE_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONPIPELINE_H

// The steps of `launchopt fuse` between reading the files the command line
// names and writing its outputs, as runTransformPipeline is for the launch
// passes: loadFusionInput takes the problem and what was measured of it;
// runFusionPipeline builds the graphs and the projection model, chooses the
// plan and generates the fused source. The command line writes the problem
// in between (--write-problem), so the steps are two calls. Only the driver
// parses: a source comes here parsed.

#include "FusionCodegenOptions.h"
#include "FusionExtraction.h"
#include "Model/FusionPlan.h"
#include "Model/GpuDescription.h"
#include "Model/SyntheticPrograms.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// Where the problem comes from and what was measured of it. The texts are
// the contents of the files the command line named.
struct FusionInputOptions {
  // A CUDA source, parsed by the caller, who keeps it alive while the input
  // is used: the problem is extracted from Source, whose main file is Input
  // with contents InputText.
  clang::ASTContext *Source = nullptr;
  std::string Input;
  std::string InputText;
  FusionExtractionOptions Extraction;
  // Otherwise a synthetic program, or else a problem in JSON.
  std::optional<SyntheticProgramSpec> Synthetic;
  std::string ProblemJson;
  // Registers and shared memory per kernel: captured ptxas output, or (with
  // RunNvcc) what Nvcc prints for the source compiled with CompilerFlags.
  std::optional<std::string> ResourceUsage;
  bool RunNvcc = false;
  std::string Nvcc;
  std::vector<std::string> CompilerFlags;
  // Measured kernel times (KernelTimes.h lists the forms read).
  std::optional<std::string> KernelTimes;
};

// The problem the pipeline works on; from a source also the launch analysis
// and what was extracted, which points into it (so the whole is held by
// pointer, never copied).
struct FusionInput {
  FusionProblem Problem;
  clang::ASTContext *Source = nullptr;
  LaunchAnalysis Launches;
  FusionExtraction Extraction;
  std::string Text;
};

enum class FusionSearch { Genetic, Exact, Both, None };

struct FusionPipelineOptions {
  GpuDescription Gpu;
  // Relax the precedences of expandable arrays that code generation can
  // give a buffer per version (FusionRenaming.h).
  bool RenameExpandable = false;
  // The plan to follow (JSON) instead of searching, and the file it came
  // from, for messages.
  std::optional<std::string> UsePlan;
  std::string UsePlanName;
  FusionSearch Search = FusionSearch::Genetic;
  GeneticSearchOptions Genetic;
  // OnChip also decides what the projection model assumes; the pipeline
  // sets Renaming.
  FusionCodegenOptions Codegen;
};

struct FusionOutput {
  FusionGraphs Graphs;
  Grouping Groups;
  FusionPlan Plan;
  RenamingPlan Renaming;
  // From a source: where each new kernel keeps its shared arrays, the fused
  // source (its runtime includes not yet embedded) and the remarks.
  std::vector<std::string> OnChipSummary;
  std::optional<std::string> FusedText;
  std::vector<LaunchRemark> Remarks;
};

// The problem, with the measurements applied; each measurement found puts a
// line on Log.
llvm::Expected<std::unique_ptr<FusionInput>> loadFusionInput(const FusionInputOptions &Options,
                                                             llvm::raw_ostream &Log);

// Why Options cannot be asked of In's problem (the exact search's limit):
// the command line's fault, not the input's.
llvm::Error checkFusionOptions(const FusionInput &In, const FusionPipelineOptions &Options);

// The graphs, the plan (followed or searched: each search puts its figures
// on Log) and, from a source, the fused source.
llvm::Expected<FusionOutput> runFusionPipeline(const FusionInput &In,
                                               const FusionPipelineOptions &Options,
                                               llvm::raw_ostream &Log);

} // namespace launchopt

#endif

#include "FusionPipeline.h"

#include "FusionCodegen.h"
#include "FusionRenaming.h"
#include "Model/KernelTimes.h"
#include "Model/NvccResources.h"
#include "Support/MakeError.h"
#include "llvm/Support/Format.h"
#include <chrono>

namespace launchopt {

namespace {

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

// The problem from a CUDA source, a generator spec or JSON.
llvm::Error loadProblem(const FusionInputOptions &Options, FusionInput &In) {
  if (Options.Source) {
    In.Source = Options.Source;
    In.Text = Options.InputText;
    clang::ASTContext &Ctx = *In.Source;
    In.Launches = analyzeLaunches(Ctx, /*IncludedFiles=*/true);
    In.Extraction = extractFusionProblem(Ctx, In.Launches, Options.Extraction);
    const std::string &Function = Options.Extraction.Function;
    if (!In.Extraction.Host)
      return makeError("no host function with kernel launches" +
                       (Function.empty() ? "" : " named '" + Function + "'"));
    In.Problem = In.Extraction.Problem;
    return llvm::Error::success();
  }
  if (Options.Synthetic) {
    In.Problem = generateSyntheticProgram(*Options.Synthetic);
    return llvm::Error::success();
  }
  llvm::Expected<llvm::json::Value> Json = llvm::json::parse(Options.ProblemJson);
  if (!Json)
    return Json.takeError();
  llvm::Expected<FusionProblem> Read = problemFromJson(*Json);
  if (!Read)
    return Read.takeError();
  In.Problem = std::move(*Read);
  return llvm::Error::success();
}

// Registers and shared memory from ptxas and measured kernel times, in the
// problem and in the extraction's copy of it (code generation reads that).
llvm::Error applyMeasurements(const FusionInputOptions &Options, FusionInput &In,
                              llvm::raw_ostream &Log) {
  if (Options.ResourceUsage || Options.RunNvcc) {
    std::string Usage;
    if (Options.ResourceUsage) {
      Usage = *Options.ResourceUsage;
    } else {
      llvm::Expected<std::string> Text =
          runNvccResourceUsage(Options.Nvcc, Options.Input, Options.CompilerFlags);
      if (!Text)
        return Text.takeError();
      Usage = std::move(*Text);
    }
    std::map<std::string, KernelResources> Resources = parseNvccResourceUsage(Usage);
    unsigned Found = applyKernelResources(In.Problem, Resources);
    applyKernelResources(In.Extraction.Problem, Resources);
    Log << "resource usage: registers and shared memory of " << Found << " of "
        << In.Problem.Kernels.size() << " kernels from nvcc\n";
  }
  if (Options.KernelTimes) {
    llvm::Expected<std::map<std::string, double>> Times = parseKernelTimes(*Options.KernelTimes);
    if (!Times)
      return Times.takeError();
    unsigned Found = applyKernelTimes(In.Problem, *Times);
    applyKernelTimes(In.Extraction.Problem, *Times);
    Log << "kernel times: measured times of " << Found << " of " << In.Problem.Kernels.size()
        << " kernels\n";
  }
  return llvm::Error::success();
}

// The grouping of a plan to follow, checked against the model: it may fuse
// where the projection sees no gain (to measure it), but every other
// constraint must hold.
llvm::Expected<Grouping> followPlan(const ProjectionModel &Model, const GroupEvaluator &Evaluator,
                                    const FusionPipelineOptions &Options) {
  llvm::Expected<llvm::json::Value> Json = llvm::json::parse(*Options.UsePlan);
  if (!Json)
    return Json.takeError();
  llvm::Expected<Grouping> Groups = groupingFromPlanJson(*Json, Model.problem());
  if (!Groups)
    return Groups.takeError();
  const std::string &Name = Options.UsePlanName;
  for (const std::vector<unsigned> &F : *Groups) {
    NewKernelProjection Projection = Model.project(F);
    if (F.size() > 1 && !Projection.Feasible &&
        Projection.ProjectedSeconds < Projection.OriginalSum)
      return makeError("the plan in '" + Name +
                       "' cannot be followed: " + Projection.Infeasibility);
  }
  if (!Evaluator.orderable(*Groups))
    return makeError("the plan in '" + Name + "' orders new kernels in a cycle");
  return canonicalGrouping(Evaluator, *Groups);
}

llvm::Error exactSearchLimit() {
  return makeError("exact search is limited to " + llvm::Twine(ExactSearchMaxKernels) + " kernels");
}

// The grouping: the plan to follow, none (FusionSearch::None), or the
// genetic and/or the exact search's.
llvm::Expected<Grouping> choosePlan(const ProjectionModel &Model, const GroupEvaluator &Evaluator,
                                    const FusionPipelineOptions &Options, llvm::raw_ostream &Log) {
  if (Options.UsePlan)
    return followPlan(Model, Evaluator, Options);
  const FusionProblem &Problem = Model.problem();
  SearchResult Result;
  if (Options.Search == FusionSearch::None) {
    for (unsigned K = 0; K < Problem.Kernels.size(); ++K)
      Result.Best.push_back({K});
    return Result.Best;
  }
  if (Options.Search != FusionSearch::Exact) {
    auto Start = std::chrono::steady_clock::now();
    Result = GroupingGeneticSearch(Evaluator, Options.Genetic).run();
    Log << llvm::format(
        "genetic search: %zu kernels, %zu arrays, seed %u: %.6e s in %u generations, %zu new "
        "kernels projected, %.3f s\n",
        Problem.Kernels.size(), Problem.Arrays.size(), unsigned(Options.Genetic.Seed),
        Result.Seconds, Result.Generations, Result.Evaluations, secondsSince(Start));
  }
  if (Options.Search == FusionSearch::Exact || Options.Search == FusionSearch::Both) {
    GroupEvaluator ExactEvaluator(Model);
    auto Start = std::chrono::steady_clock::now();
    std::optional<SearchResult> Exact = exactSearch(ExactEvaluator);
    if (!Exact)
      return exactSearchLimit();
    Log << llvm::format("exact search: %.6e s, %.3f s\n", Exact->Seconds, secondsSince(Start));
    if (Options.Search == FusionSearch::Both)
      Log << "genetic search "
          << (Result.Seconds <= Exact->Seconds * (1 + 1e-9) ? "found" : "missed")
          << " the optimum\n";
    else
      Result = *Exact;
  }
  return Result.Best;
}

// The fused source of Plan (edits applied to the input's text) and the
// remarks.
llvm::Error generate(const FusionInput &In, const FusionPipelineOptions &Options,
                     const std::vector<std::string> &RenameRefusals, FusionOutput &Out) {
  clang::ASTContext &Ctx = *In.Source;
  FusionCodegenOptions Codegen = Options.Codegen;
  Codegen.Gpu = &Options.Gpu;
  // No search is no fusion, over time too (the original's timed build).
  if (Options.Search == FusionSearch::None && !Options.UsePlan)
    Codegen.Temporal = false;
  if (Options.RenameExpandable) {
    Out.Renaming = planRenaming(Ctx, In.Extraction, Out.Graphs, Out.Plan, RenameRefusals);
    Codegen.Renaming = &Out.Renaming;
  }
  PassResult Pass = generateFusedSource(Ctx, In.Extraction, Out.Plan, Codegen, Out.OnChipSummary);
  llvm::Expected<std::string> Text = Pass.Edits.apply(In.Text);
  if (!Text)
    return makeError("internal error: " + llvm::toString(Text.takeError()));
  Out.FusedText = std::move(*Text);
  Out.Remarks = std::move(Pass.Remarks);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::unique_ptr<FusionInput>> loadFusionInput(const FusionInputOptions &Options,
                                                             llvm::raw_ostream &Log) {
  auto In = std::make_unique<FusionInput>();
  if (llvm::Error E = loadProblem(Options, *In))
    return std::move(E);
  if (llvm::Error E = applyMeasurements(Options, *In, Log))
    return std::move(E);
  return std::move(In);
}

llvm::Error checkFusionOptions(const FusionInput &In, const FusionPipelineOptions &Options) {
  bool Exact = Options.Search == FusionSearch::Exact || Options.Search == FusionSearch::Both;
  if (!Options.UsePlan && Exact && In.Problem.Kernels.size() > ExactSearchMaxKernels)
    return exactSearchLimit();
  return llvm::Error::success();
}

llvm::Expected<FusionOutput> runFusionPipeline(const FusionInput &In,
                                               const FusionPipelineOptions &Options,
                                               llvm::raw_ostream &Log) {
  const FusionProblem &Problem = In.Problem;
  FusionOutput Out;
  // From a source, arrays that code generation cannot rename keep one
  // version in the search too (FusionRenaming.h says why per array).
  std::vector<bool> Relax(Problem.Arrays.size(), Options.RenameExpandable);
  std::vector<std::string> RenameRefusals(Problem.Arrays.size());
  if (Options.RenameExpandable && In.Source) {
    RenameRefusals = renamingRefusals(*In.Source, In.Extraction, buildFusionGraphs(Problem, true));
    for (unsigned A = 0; A < Relax.size(); ++A)
      Relax[A] = RenameRefusals[A].empty();
  }
  Out.Graphs = buildFusionGraphs(Problem, Relax);
  ProjectionModel Model(Problem, Out.Graphs, Options.Gpu, Options.Codegen.OnChip);
  Model.setRecomputedNeighbours(Options.Codegen.MaxRecomputedNeighbours);
  GroupEvaluator Evaluator(Model);
  llvm::Expected<Grouping> Groups = choosePlan(Model, Evaluator, Options, Log);
  if (!Groups)
    return Groups.takeError();
  Out.Groups = std::move(*Groups);
  Out.Plan = makeFusionPlan(Model, Out.Groups);
  if (In.Source)
    if (llvm::Error E = generate(In, Options, RenameRefusals, Out))
      return std::move(E);
  return std::move(Out);
}

} // namespace launchopt

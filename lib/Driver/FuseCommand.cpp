#include "FuseCommand.h"

#include "CommandSupport.h"
#include "CrashStage.h"
#include "Report.h"
#include "SubcommandLine.h"
#include "Frontend/Frontend.h"
#include "Rewrite/OutputFile.h"
#include "Rewrite/RuntimeEmbedding.h"
#include "Transforms/Fusion/FusionPipeline.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

namespace launchopt {

namespace {

namespace cl = llvm::cl;

cl::SubCommand Fuse("fuse", "Kernel fusion of host-launched memory-bound kernels");

cl::opt<std::string> Input(cl::Positional, cl::desc("<file.cu>"), cl::sub(Fuse));
cl::opt<std::string> OutputPath("o", cl::desc("Write the fused source to <file> (default: stdout)"),
                                cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> Function("function",
                              cl::desc("Host function whose launches are fused (default: the "
                                       "one with the most launches)"),
                              cl::sub(Fuse));
cl::opt<double> Sites("sites", cl::desc("Stencil sites per launch the plan is made for"),
                      cl::init(8192.0 * 8192.0), cl::sub(Fuse));
cl::opt<bool> TimingHooks("timing-hooks",
                          cl::desc("Time every new launch when built with "
                                   "-DLAUNCHOPT_FUSION_TIMING"),
                          cl::sub(Fuse));
cl::opt<bool> OnChip("on-chip",
                     cl::desc("Generate through registers and shared-memory tiles where the "
                              "shapes allow (default; =false: every dependence through GMEM)"),
                     cl::init(true), cl::sub(Fuse));
cl::opt<unsigned> RecomputeNeighbours(
    "recompute-neighbours",
    cl::desc("Recompute a halo producer in registers at up to <n> neighbour sites its results "
             "are read at, instead of filling a shared-memory tile (default 2; 0: always tiles)"),
    cl::value_desc("n"), cl::init(2), cl::sub(Fuse));
cl::opt<unsigned> TemporalSteps(
    "temporal-steps",
    cl::desc("Fuse <n> steps of a kernel launched alone in a time loop with ping-pong buffers "
             "into one launch (default 0: the projection chooses up to 4; 1: no temporal "
             "fusion; -DLAUNCHOPT_TEMPORAL_STEPS overrides the output's count)"),
    cl::value_desc("n"), cl::init(0), cl::sub(Fuse));
cl::opt<bool> TemporalTiles(
    "temporal-tiles",
    cl::desc("Fuse steps over time in shared-memory tiles (the block's sites widened by the "
             "remaining steps' reach, a barrier between steps) instead of recomputing them per "
             "site in registers"),
    cl::sub(Fuse));
cl::opt<std::string> UsePlan("use-plan", cl::desc("Follow the plan in <file> instead of searching"),
                             cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> TestingOnlyCrash(
    "testing-only-crash",
    cl::desc("For tests of the crash message only: crash while searching (exception|signal)"),
    cl::Hidden, cl::sub(Fuse));
cl::opt<bool> Quiet("quiet", cl::desc("Do not print per-launch remarks"), cl::sub(Fuse));
cl::opt<std::string> ProblemPath("problem",
                                 cl::desc("Read the fusion problem from <file> (JSON) "
                                          "instead of a CUDA source"),
                                 cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> GenerateSpec(
    "generate",
    cl::desc("Generate a synthetic problem: kernels=N,arrays=N,copies=N,sharing=N,load=N,"
             "kinship=N,seed=N (paper Table V attributes)"),
    cl::value_desc("spec"), cl::sub(Fuse));
cl::opt<std::string> WriteProblem("write-problem", cl::desc("Write the fusion problem (JSON)"),
                                  cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> GpuPath("gpu", cl::desc("GPU description file (default: the H100's)"),
                             cl::value_desc("file"), cl::sub(Fuse));
cl::opt<FusionSearch> SearchKind(
    "search", cl::desc("How to find the plan"),
    cl::values(clEnumValN(FusionSearch::Genetic, "genetic", "grouping genetic algorithm (default)"),
               clEnumValN(FusionSearch::Exact, "exact", "every partition (small problems only)"),
               clEnumValN(FusionSearch::Both, "both", "both, and say whether they agree"),
               clEnumValN(FusionSearch::None, "none", "no fusion (every kernel alone)")),
    cl::init(FusionSearch::Genetic), cl::sub(Fuse));
cl::opt<unsigned> Seed("seed", cl::desc("Seed of the genetic search"), cl::init(1), cl::sub(Fuse));
cl::opt<unsigned> Population("population", cl::desc("Population size"), cl::init(60),
                             cl::sub(Fuse));
cl::opt<unsigned> Stall("stall", cl::desc("Stop after this many generations without change"),
                        cl::init(150), cl::sub(Fuse));
cl::opt<bool> RenameExpandable(
    "rename-expandable",
    cl::desc("Relax precedences of expandable arrays by renaming: later versions get new "
             "buffers in the generated code"),
    cl::sub(Fuse));
cl::opt<std::string> PlanOut("plan", cl::desc("Write the fusion plan (JSON)"),
                             cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> ReportOut("report", cl::desc("Write the readable plan report ('-': stdout)"),
                               cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> DataDot("data-dot", cl::desc("Write the data-dependency graph (DOT)"),
                             cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> OrderDot("order-dot",
                              cl::desc("Write the order-of-execution graph with the plan (DOT)"),
                              cl::value_desc("file"), cl::sub(Fuse));

cl::opt<bool> NvccResources(
    "nvcc-resources",
    cl::desc("Compile the input with nvcc --resource-usage (sm_90) and use each kernel's "
             "registers and static shared memory in the model (default: 32 registers)"),
    cl::sub(Fuse));
cl::opt<std::string> NvccPath("nvcc", cl::desc("nvcc for --nvcc-resources"),
                              cl::init("/usr/local/cuda/bin/nvcc"), cl::value_desc("path"),
                              cl::sub(Fuse));
cl::opt<std::string> ResourceUsage(
    "resource-usage",
    cl::desc("Read kernel registers and shared memory from captured nvcc --resource-usage "
             "(or -Xptxas -v) output in <file>"),
    cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> KernelTimes(
    "kernel-times",
    cl::desc("Measured kernel times of a profiling run in <file> (CSV 'kernel,seconds', the "
             "per-launch lines of a --timing-hooks build, or nsys cuda_gpu_kern_sum CSV): the "
             "original times and original sums of the model"),
    cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA toolkit whose headers are used for parsing"),
                              cl::value_desc("dir"), cl::sub(Fuse));

const char *const Command = "launchopt fuse";

int failWith(int Code, llvm::Error E) { return fail(Command, Code, llvm::toString(std::move(E))); }

// The text of the file an option names; nothing when the option is not given.
llvm::Error readOption(const std::string &Path, std::optional<std::string> &Text) {
  if (Path.empty())
    return llvm::Error::success();
  llvm::Expected<std::string> Read = readInputFile(Path);
  if (!Read)
    return Read.takeError();
  Text = std::move(*Read);
  return llvm::Error::success();
}

// Where the problem comes from and the measurements, with the files the
// options name read (the source is parsed after).
llvm::Expected<FusionInputOptions> inputOptions(std::optional<SyntheticProgramSpec> Synthetic,
                                                llvm::ArrayRef<const char *> CommandLine) {
  FusionInputOptions Options;
  if (!Input.empty()) {
    llvm::Expected<std::string> Text = readInputFile(Input);
    if (!Text)
      return Text.takeError();
    Options.Input = Input;
    Options.InputText = std::move(*Text);
    Options.Extraction.Function = Function;
    Options.Extraction.Sites = Sites;
  }
  Options.Synthetic = Synthetic;
  std::optional<std::string> Problem;
  if (llvm::Error E = readOption(ProblemPath, Problem))
    return std::move(E);
  Options.ProblemJson = Problem.value_or("");
  if (llvm::Error E = readOption(ResourceUsage, Options.ResourceUsage))
    return std::move(E);
  Options.RunNvcc = NvccResources && !Options.ResourceUsage;
  Options.Nvcc = NvccPath;
  auto Dashes = std::find_if(CommandLine.begin(), CommandLine.end(),
                             [](const char *A) { return llvm::StringRef(A) == "--"; });
  if (Dashes != CommandLine.end())
    Options.CompilerFlags.assign(Dashes + 1, CommandLine.end());
  if (llvm::Error E = readOption(KernelTimes, Options.KernelTimes))
    return std::move(E);
  return std::move(Options);
}

// The GPU, the plan to follow or the search, and how to generate.
llvm::Expected<FusionPipelineOptions> pipelineOptions() {
  FusionPipelineOptions Options;
  llvm::Expected<GpuDescription> Gpu =
      loadGpuDescription(GpuPath.empty() ? defaultGpuDescriptionPath() : GpuPath.getValue());
  if (!Gpu)
    return Gpu.takeError();
  Options.Gpu = *Gpu;
  Options.RenameExpandable = RenameExpandable;
  if (llvm::Error E = readOption(UsePlan, Options.UsePlan))
    return std::move(E);
  Options.UsePlanName = UsePlan;
  Options.Search = SearchKind;
  Options.Genetic.Seed = Seed;
  Options.Genetic.PopulationSize = Population;
  Options.Genetic.OffspringPerGeneration = std::max(1u, Population / 2);
  Options.Genetic.StallGenerations = Stall;
  Options.Codegen.TimingHooks = TimingHooks;
  Options.Codegen.OnChip = OnChip;
  Options.Codegen.MaxRecomputedNeighbours = RecomputeNeighbours;
  Options.Codegen.Temporal = TemporalSteps != 1;
  Options.Codegen.TemporalSteps = TemporalSteps;
  Options.Codegen.TemporalTiles = TemporalTiles;
  return std::move(Options);
}

std::string dot(const FusionProblem &P, const FusionGraphs &G, const Grouping *Groups) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (Groups)
    writeOrderOfExecutionDot(OS, P, G, Groups);
  else
    writeDataDependencyDot(OS, P, G);
  return S;
}

// --plan, --report, --data-dot and --order-dot.
llvm::Error writePlanFiles(const FusionProblem &Problem, const FusionOutput &Out) {
  if (!PlanOut.empty())
    if (llvm::Error E =
            writeOutput(PlanOut, llvm::formatv("{0:2}", toJson(Out.Plan, Problem)).str() + "\n"))
      return E;
  if (!ReportOut.empty()) {
    std::string Report;
    llvm::raw_string_ostream OS(Report);
    printPlanReport(OS, Out.Plan, Problem);
    for (unsigned F = 0; F < Out.OnChipSummary.size(); ++F)
      if (Out.Plan.NewKernels[F].Members.size() > 1)
        OS << "  launch " << F << " code generation: " << Out.OnChipSummary[F] << "\n";
    for (const std::string &Line : Out.Renaming.ReportLines)
      OS << "  " << Line << "\n";
    if (llvm::Error E = writeOutput(ReportOut, Report))
      return E;
  }
  if (!DataDot.empty())
    if (llvm::Error E = writeOutput(DataDot, dot(Problem, Out.Graphs, nullptr)))
      return E;
  if (!OrderDot.empty())
    if (llvm::Error E = writeOutput(OrderDot, dot(Problem, Out.Graphs, &Out.Groups)))
      return E;
  return llvm::Error::success();
}

// The remarks, and the fused source with the runtime embedded to -o
// (default: stdout).
llvm::Error writeFusedSource(const FusionOutput &Out) {
  if (!Quiet)
    printRemarks(llvm::errs(), Out.Remarks);
  llvm::Expected<std::string> Output = embedRuntime(*Out.FusedText);
  if (!Output)
    return Output.takeError();
  return writeOutput(OutputPath.empty() ? "-" : OutputPath.getValue(), *Output);
}

} // namespace

int runFuseCommand(int Argc, const char **Argv) {
  SubcommandLine Line = splitSubcommandLine(Argc, Argv);
  int ArgCount = static_cast<int>(Line.Args.size());
  std::string Errors;
  llvm::raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(ArgCount, Line.Args.data(),
                                   "launchopt fuse: kernel fusion (scalable-kernel-fusion)\n",
                                   &ErrorStream))
    return fail(Command, ExitUsageError, ErrorStream.str());
  if (Input.empty() + ProblemPath.empty() + GenerateSpec.empty() != 2)
    return fail(Command, ExitUsageError, "give exactly one of <file.cu>, --problem or --generate");
  if (NvccResources && ResourceUsage.empty() && Input.empty())
    return fail(Command, ExitUsageError, "--nvcc-resources needs a CUDA source");
  std::optional<SyntheticProgramSpec> Synthetic;
  if (!GenerateSpec.empty()) {
    llvm::Expected<SyntheticProgramSpec> Spec = parseSyntheticProgramSpec(GenerateSpec);
    if (!Spec)
      return fail(Command, ExitUsageError, "--generate: " + llvm::toString(Spec.takeError()));
    Synthetic = *Spec;
  }

  llvm::Expected<FusionInputOptions> InputOptions =
      inputOptions(Synthetic, llvm::ArrayRef<const char *>(Argv, Argc));
  if (!InputOptions)
    return failWith(ExitInputError, InputOptions.takeError());
  // The parsed file reads its text from InputOptions: both live to the end.
  const std::string Source = !Input.empty()         ? Input.getValue()
                             : !ProblemPath.empty() ? ProblemPath.getValue()
                                                    : "--generate=" + GenerateSpec;
  std::unique_ptr<ParsedFile> Parsed;
  if (!Input.empty()) {
    CrashStage Stage("parsing", Source);
    Parsed = parseCudaFile(*Line.Database, Input, parseEnvironmentFor(CudaPath),
                           &InputOptions->InputText);
    if (!Parsed)
      return fail(Command, ExitInputError, "'" + Input + "' could not be parsed");
    InputOptions->Source = &Parsed->Unit->getASTContext();
  }
  std::optional<CrashStage> Stage;
  Stage.emplace("extracting the fusion problem of", Source);
  llvm::Expected<std::unique_ptr<FusionInput>> In = loadFusionInput(*InputOptions, llvm::errs());
  if (!In)
    return failWith(ExitInputError, In.takeError());
  const FusionProblem &Problem = (*In)->Problem;
  if (!WriteProblem.empty())
    if (llvm::Error E =
            writeOutput(WriteProblem, llvm::formatv("{0:2}", toJson(Problem)).str() + "\n"))
      return failWith(ExitInputError, std::move(E));

  llvm::Expected<FusionPipelineOptions> Options = pipelineOptions();
  if (!Options)
    return failWith(ExitInputError, Options.takeError());
  if (llvm::Error E = checkFusionOptions(**In, *Options))
    return failWith(ExitUsageError, std::move(E));
  Stage.reset();
  Stage.emplace("searching and generating the fusion plan of", Source);
  if (!TestingOnlyCrash.empty())
    forceCrashForTesting(TestingOnlyCrash);
  llvm::Expected<FusionOutput> Out = runFusionPipeline(**In, *Options, llvm::errs());
  if (!Out)
    return failWith(ExitInputError, Out.takeError());
  if (llvm::Error E = writePlanFiles(Problem, *Out))
    return failWith(ExitInputError, std::move(E));
  if (Out->FusedText)
    if (llvm::Error E = writeFusedSource(*Out))
      return failWith(ExitInputError, std::move(E));
  return ExitSuccess;
}

} // namespace launchopt

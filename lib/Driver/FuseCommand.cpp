#include "FuseCommand.h"

#include "Driver.h"
#include "SubcommandLine.h"
#include "Report.h"
#include "Frontend/Frontend.h"
#include "Transforms/Fusion/FusionCodegen.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "Rewrite/OutputFile.h"
#include "Rewrite/RuntimeEmbedding.h"
#include "Transforms/Fusion/Model/FusionPlan.h"
#include "Transforms/Fusion/Model/KernelTimes.h"
#include "Transforms/Fusion/Model/NvccResources.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "Transforms/Fusion/Model/SyntheticPrograms.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <chrono>

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
cl::opt<std::string> UsePlan("use-plan", cl::desc("Follow the plan in <file> instead of searching"),
                             cl::value_desc("file"), cl::sub(Fuse));
cl::opt<bool> Quiet("quiet", cl::desc("Do not print per-launch remarks"), cl::sub(Fuse));
cl::opt<std::string> ProblemPath("problem", cl::desc("Read the fusion problem from <file> (JSON) "
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
enum class Search { Genetic, Exact, Both, None };
cl::opt<Search> SearchKind(
    "search", cl::desc("How to find the plan"),
    cl::values(clEnumValN(Search::Genetic, "genetic", "grouping genetic algorithm (default)"),
               clEnumValN(Search::Exact, "exact", "every partition (small problems only)"),
               clEnumValN(Search::Both, "both", "both, and say whether they agree"),
               clEnumValN(Search::None, "none", "no fusion (every kernel alone)")),
    cl::init(Search::Genetic), cl::sub(Fuse));
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

int fail(int Code, const llvm::Twine &Message) {
  llvm::errs() << "launchopt fuse: error: " << Message << "\n";
  return Code;
}

llvm::Expected<SyntheticProgramSpec> parseSpec(llvm::StringRef Text) {
  SyntheticProgramSpec Spec;
  llvm::SmallVector<llvm::StringRef> Items;
  Text.split(Items, ',', -1, false);
  for (llvm::StringRef Item : Items) {
    auto [Key, Value] = Item.split('=');
    unsigned long long N = 0;
    if (Value.getAsInteger(10, N))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--generate: '" + Item + "' is not key=number");
    if (Key == "kernels")
      Spec.Kernels = N;
    else if (Key == "arrays")
      Spec.Arrays = N;
    else if (Key == "copies")
      Spec.DataCopies = N;
    else if (Key == "sharing")
      Spec.SharingSetSize = N;
    else if (Key == "load")
      Spec.ThreadLoad = N;
    else if (Key == "kinship")
      Spec.Kinship = N;
    else if (Key == "seed")
      Spec.Seed = N;
    else
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--generate: unknown attribute '" + Key + "'");
  }
  return Spec;
}

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
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

// Runs nvcc --resource-usage on the input with the user's -I/-D/-U/-std
// flags and returns what ptxas printed.
llvm::Expected<std::string> nvccResourceUsage(const std::string &File,
                                              llvm::ArrayRef<const char *> UserFlags) {
  llvm::SmallString<128> Log;
  if (std::error_code E = llvm::sys::fs::createTemporaryFile("launchopt-nvcc", "txt", Log))
    return llvm::createStringError(E, "cannot create a temporary file");
  std::vector<std::string> Storage{NvccPath, "-arch=sm_90", "--resource-usage", "-c",
                                   "-o",     "/dev/null"};
  for (llvm::StringRef Flag : UserFlags)
    if (Flag.starts_with("-I") || Flag.starts_with("-D") || Flag.starts_with("-U") ||
        Flag.starts_with("-std="))
      Storage.push_back(Flag.str());
  Storage.push_back(File);
  std::vector<llvm::StringRef> Args(Storage.begin(), Storage.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Log.str(), Log.str()};
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(NvccPath, Args, std::nullopt, Redirects, 0, 0, &Error);
  auto Buffer = llvm::MemoryBuffer::getFile(Log);
  std::string Text = Buffer ? (*Buffer)->getBuffer().str() : "";
  llvm::sys::fs::remove(Log);
  if (Status != 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "nvcc --resource-usage failed" +
                                       (Error.empty() ? "" : ": " + Error) + "\n" + Text);
  return Text;
}

// A step's outcome: nothing to go on, or the exit status to stop with (the
// error already printed).
using Stop = std::optional<int>;

// The text of a file named by an option.
llvm::Expected<std::string> readText(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot read '" + Path + "'");
  return (*Buffer)->getBuffer().str();
}

// The JSON in a file named by an option.
llvm::Expected<llvm::json::Value> readJson(const std::string &Path) {
  llvm::Expected<std::string> Text = readText(Path);
  if (!Text)
    return Text.takeError();
  return llvm::json::parse(*Text);
}

Stop failWith(int Code, llvm::Error E) { return fail(Code, llvm::toString(std::move(E))); }

// What the command works on: the problem, and when it comes from a source,
// the parsed file and what was extracted from it.
struct FuseInput {
  FusionProblem Problem;
  std::unique_ptr<ParsedFile> Parsed;
  LaunchAnalysis Launches; // the extraction points into it
  FusionExtraction Extraction;
  std::string Text;
};

// The problem from a CUDA source, a JSON file or a generator spec.
Stop loadProblem(clang::tooling::CompilationDatabase &Database, FuseInput &In) {
  if (!Input.empty()) {
    llvm::Expected<std::string> Text = readText(Input);
    if (!Text)
      return failWith(ExitInputError, Text.takeError());
    In.Text = *Text;
    In.Parsed = parseCudaFile(Database, Input, defaultParseEnvironment(), &In.Text);
    if (!In.Parsed)
      return fail(ExitInputError, "'" + Input + "' could not be parsed");
    clang::ASTContext &Ctx = In.Parsed->Unit->getASTContext();
    FusionExtractionOptions Options;
    Options.Function = Function;
    Options.Sites = Sites;
    In.Launches = analyzeLaunches(Ctx);
    In.Extraction = extractFusionProblem(Ctx, In.Launches, Options);
    if (!In.Extraction.Host)
      return fail(ExitInputError, "no host function with kernel launches" +
                                      (Function.empty() ? "" : " named '" + Function + "'"));
    In.Problem = In.Extraction.Problem;
    return std::nullopt;
  }
  if (!GenerateSpec.empty()) {
    llvm::Expected<SyntheticProgramSpec> Spec = parseSpec(GenerateSpec);
    if (!Spec)
      return failWith(ExitUsageError, Spec.takeError());
    In.Problem = generateSyntheticProgram(*Spec);
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> Json = readJson(ProblemPath);
  if (!Json)
    return failWith(ExitInputError, Json.takeError());
  llvm::Expected<FusionProblem> Read = problemFromJson(*Json);
  if (!Read)
    return failWith(ExitInputError, Read.takeError());
  In.Problem = std::move(*Read);
  return std::nullopt;
}

// Registers and shared memory from ptxas (--nvcc-resources, --resource-usage)
// and measured kernel times (--kernel-times), in the problem and the
// extraction's copy of it.
Stop applyMeasurements(llvm::ArrayRef<const char *> CommandLine, FuseInput &In) {
  if (NvccResources || !ResourceUsage.empty()) {
    std::string Usage;
    if (!ResourceUsage.empty()) {
      llvm::Expected<std::string> Text = readText(ResourceUsage);
      if (!Text)
        return failWith(ExitInputError, Text.takeError());
      Usage = *Text;
    } else {
      if (Input.empty())
        return fail(ExitUsageError, "--nvcc-resources needs a CUDA source");
      if (!llvm::sys::fs::can_execute(NvccPath))
        return fail(ExitInputError, "nvcc not found at '" + NvccPath + "'");
      auto Dashes = std::find_if(CommandLine.begin(), CommandLine.end(),
                                 [](const char *A) { return llvm::StringRef(A) == "--"; });
      llvm::ArrayRef<const char *> UserFlags =
          Dashes == CommandLine.end() ? llvm::ArrayRef<const char *>()
                                      : CommandLine.drop_front(Dashes - CommandLine.begin() + 1);
      llvm::Expected<std::string> Text = nvccResourceUsage(Input, UserFlags);
      if (!Text)
        return failWith(ExitInputError, Text.takeError());
      Usage = *Text;
    }
    std::map<std::string, KernelResources> Resources = parseNvccResourceUsage(Usage);
    unsigned Found = applyKernelResources(In.Problem, Resources);
    applyKernelResources(In.Extraction.Problem, Resources);
    llvm::errs() << "resource usage: registers and shared memory of " << Found << " of "
                 << In.Problem.Kernels.size() << " kernels from nvcc\n";
  }
  if (!KernelTimes.empty()) {
    llvm::Expected<std::string> Text = readText(KernelTimes);
    if (!Text)
      return failWith(ExitInputError, Text.takeError());
    llvm::Expected<std::map<std::string, double>> Times = parseKernelTimes(*Text);
    if (!Times)
      return failWith(ExitInputError, Times.takeError());
    unsigned Found = applyKernelTimes(In.Problem, *Times);
    applyKernelTimes(In.Extraction.Problem, *Times);
    llvm::errs() << "kernel times: measured times of " << Found << " of "
                 << In.Problem.Kernels.size() << " kernels\n";
  }
  return std::nullopt;
}

// The grouping of --use-plan, checked against the model: it may fuse where
// the projection sees no gain (to measure it), but every other constraint
// must hold.
Stop followPlan(const ProjectionModel &Model, GroupEvaluator &Evaluator,
                const FusionProblem &Problem, SearchResult &Result) {
  llvm::Expected<llvm::json::Value> Json = readJson(UsePlan);
  if (!Json)
    return failWith(ExitInputError, Json.takeError());
  llvm::Expected<Grouping> Groups = groupingFromPlanJson(*Json, Problem);
  if (!Groups)
    return failWith(ExitInputError, Groups.takeError());
  for (const std::vector<unsigned> &F : *Groups) {
    NewKernelProjection Projection = Model.project(F);
    if (F.size() > 1 && !Projection.Feasible &&
        Projection.ProjectedSeconds < Projection.OriginalSum)
      return fail(ExitInputError, "the plan in '" + UsePlan + "' cannot be followed: " +
                                      Projection.Infeasibility);
  }
  if (!Evaluator.orderable(*Groups))
    return fail(ExitInputError, "the plan in '" + UsePlan + "' orders new kernels in a cycle");
  Result.Best = canonicalGrouping(Evaluator, *Groups);
  return std::nullopt;
}

// The grouping: --use-plan's, none (--search=none), or the genetic and/or
// exact search's.
Stop choosePlan(const ProjectionModel &Model, GroupEvaluator &Evaluator,
                const FusionProblem &Problem, SearchResult &Result) {
  if (!UsePlan.empty())
    return followPlan(Model, Evaluator, Problem, Result);
  if (SearchKind == Search::None) {
    for (unsigned K = 0; K < Problem.Kernels.size(); ++K)
      Result.Best.push_back({K});
    return std::nullopt;
  }
  if (SearchKind != Search::Exact) {
    GeneticSearchOptions Options;
    Options.Seed = Seed;
    Options.PopulationSize = Population;
    Options.OffspringPerGeneration = std::max(1u, Population / 2);
    Options.StallGenerations = Stall;
    auto Start = std::chrono::steady_clock::now();
    Result = GroupingGeneticSearch(Evaluator, Options).run();
    llvm::errs() << llvm::format(
        "genetic search: %zu kernels, %zu arrays, seed %u: %.6e s in %u generations, %zu new "
        "kernels projected, %.3f s\n",
        Problem.Kernels.size(), Problem.Arrays.size(), unsigned(Seed), Result.Seconds,
        Result.Generations, Result.Evaluations, secondsSince(Start));
  }
  if (SearchKind == Search::Exact || SearchKind == Search::Both) {
    GroupEvaluator ExactEvaluator(Model);
    auto Start = std::chrono::steady_clock::now();
    std::optional<SearchResult> Exact = exactSearch(ExactEvaluator);
    if (!Exact)
      return fail(ExitUsageError, "exact search is limited to 13 kernels");
    llvm::errs() << llvm::format("exact search: %.6e s, %.3f s\n", Exact->Seconds,
                                 secondsSince(Start));
    if (SearchKind == Search::Both)
      llvm::errs() << "genetic search "
                   << (Result.Seconds <= Exact->Seconds * (1 + 1e-9) ? "found" : "missed")
                   << " the optimum\n";
    else
      Result = *Exact;
  }
  return std::nullopt;
}

// --plan, --report, --data-dot and --order-dot.
Stop writePlanFiles(const FusionProblem &Problem, const FusionGraphs &Graphs,
                    const FusionPlan &Plan, const Grouping &Best,
                    const std::vector<std::string> &OnChipSummary,
                    const RenamingPlan &Renaming) {
  if (!PlanOut.empty())
    if (llvm::Error E =
            writeOutput(PlanOut, llvm::formatv("{0:2}", toJson(Plan, Problem)).str() + "\n"))
      return failWith(ExitInputError, std::move(E));
  if (!ReportOut.empty()) {
    std::string Report;
    llvm::raw_string_ostream OS(Report);
    printPlanReport(OS, Plan, Problem);
    for (unsigned F = 0; F < OnChipSummary.size(); ++F)
      if (Plan.NewKernels[F].Members.size() > 1)
        OS << "  launch " << F << " code generation: " << OnChipSummary[F] << "\n";
    for (const std::string &Line : Renaming.ReportLines)
      OS << "  " << Line << "\n";
    if (llvm::Error E = writeOutput(ReportOut, Report))
      return failWith(ExitInputError, std::move(E));
  }
  if (!DataDot.empty())
    if (llvm::Error E = writeOutput(DataDot, dot(Problem, Graphs, nullptr)))
      return failWith(ExitInputError, std::move(E));
  if (!OrderDot.empty())
    if (llvm::Error E = writeOutput(OrderDot, dot(Problem, Graphs, &Best)))
      return failWith(ExitInputError, std::move(E));
  return std::nullopt;
}

// The fused source, with the runtime embedded, to -o (default: stdout).
int writeFusedSource(const FuseInput &In, const PassResult &Pass) {
  if (!Quiet)
    printRemarks(llvm::errs(), Pass.Remarks);
  llvm::Expected<std::string> Output = Pass.Edits.apply(In.Text);
  if (!Output)
    return fail(ExitInputError, "internal error: " + llvm::toString(Output.takeError()));
  Output = embedRuntime(*Output);
  if (!Output)
    return fail(ExitInputError, llvm::toString(Output.takeError()));
  if (llvm::Error E = writeOutput(OutputPath.empty() ? "-" : OutputPath.getValue(), *Output))
    return fail(ExitInputError, llvm::toString(std::move(E)));
  return ExitSuccess;
}

} // namespace

int runFuseCommand(int Argc, const char **Argv) {
  SubcommandLine Line = splitSubcommandLine(Argc, Argv);
  int ArgCount = static_cast<int>(Line.Args.size());
  clang::tooling::CompilationDatabase &Database = *Line.Database;
  std::string Errors;
  llvm::raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(ArgCount, Line.Args.data(),
                                   "launchopt fuse: kernel fusion (scalable-kernel-fusion)\n",
                                   &ErrorStream))
    return fail(ExitUsageError, ErrorStream.str());
  if (Input.empty() + ProblemPath.empty() + GenerateSpec.empty() != 2)
    return fail(ExitUsageError, "give exactly one of <file.cu>, --problem or --generate");

  FuseInput In;
  if (Stop S = loadProblem(Database, In))
    return *S;
  if (Stop S = applyMeasurements(llvm::ArrayRef<const char *>(Argv, Argc), In))
    return *S;
  const FusionProblem &Problem = In.Problem;
  if (!WriteProblem.empty())
    if (llvm::Error E =
            writeOutput(WriteProblem, llvm::formatv("{0:2}", toJson(Problem)).str() + "\n"))
      return fail(ExitInputError, llvm::toString(std::move(E)));

  llvm::Expected<GpuDescription> Gpu =
      loadGpuDescription(GpuPath.empty() ? defaultGpuDescriptionPath() : GpuPath.getValue());
  if (!Gpu)
    return fail(ExitInputError, llvm::toString(Gpu.takeError()));

  // From a source, arrays that code generation cannot rename keep one
  // version in the search too (FusionRenaming.h says why per array).
  std::vector<bool> Relax(Problem.Arrays.size(), RenameExpandable);
  std::vector<std::string> RenameRefusals(Problem.Arrays.size());
  if (RenameExpandable && In.Parsed) {
    RenameRefusals = renamingRefusals(In.Parsed->Unit->getASTContext(), In.Extraction,
                                      buildFusionGraphs(Problem, true));
    for (unsigned A = 0; A < Relax.size(); ++A)
      Relax[A] = RenameRefusals[A].empty();
  }
  FusionGraphs Graphs = buildFusionGraphs(Problem, Relax);
  ProjectionModel Model(Problem, Graphs, *Gpu, OnChip);
  GroupEvaluator Evaluator(Model);
  SearchResult Result;
  if (Stop S = choosePlan(Model, Evaluator, Problem, Result))
    return *S;

  FusionPlan Plan = makeFusionPlan(Model, Result.Best);
  std::vector<std::string> OnChipSummary;
  PassResult Pass;
  RenamingPlan Renaming;
  if (In.Parsed) {
    FusionCodegenOptions CodegenOptions;
    CodegenOptions.TimingHooks = TimingHooks;
    CodegenOptions.OnChip = OnChip;
    CodegenOptions.MaxRecomputedNeighbours = RecomputeNeighbours;
    if (RenameExpandable) {
      Renaming = planRenaming(In.Parsed->Unit->getASTContext(), In.Extraction, Graphs, Plan,
                              RenameRefusals);
      CodegenOptions.Renaming = &Renaming;
    }
    Pass = generateFusedSource(In.Parsed->Unit->getASTContext(), In.Extraction, Plan,
                               CodegenOptions, OnChipSummary);
  }
  if (Stop S = writePlanFiles(Problem, Graphs, Plan, Result.Best, OnChipSummary, Renaming))
    return *S;
  if (!In.Parsed)
    return ExitSuccess;
  return writeFusedSource(In, Pass);
}

} // namespace launchopt

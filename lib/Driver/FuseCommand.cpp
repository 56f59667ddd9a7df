#include "FuseCommand.h"

#include "Driver.h"
#include "Rewrite/OutputFile.h"
#include "Transforms/Fusion/FusionPlan.h"
#include "Transforms/Fusion/SyntheticPrograms.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include <chrono>

namespace launchopt {

namespace {

namespace cl = llvm::cl;

cl::SubCommand Fuse("fuse", "Kernel fusion of host-launched memory-bound kernels");

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
enum class Search { Genetic, Exact, Both };
cl::opt<Search> SearchKind(
    "search", cl::desc("How to find the plan"),
    cl::values(clEnumValN(Search::Genetic, "genetic", "grouping genetic algorithm (default)"),
               clEnumValN(Search::Exact, "exact", "every partition (small problems only)"),
               clEnumValN(Search::Both, "both", "both, and say whether they agree")),
    cl::init(Search::Genetic), cl::sub(Fuse));
cl::opt<unsigned> Seed("seed", cl::desc("Seed of the genetic search"), cl::init(1), cl::sub(Fuse));
cl::opt<unsigned> Population("population", cl::desc("Population size"), cl::init(60),
                             cl::sub(Fuse));
cl::opt<unsigned> Stall("stall", cl::desc("Stop after this many generations without change"),
                        cl::init(150), cl::sub(Fuse));
cl::opt<bool> RenameExpandable(
    "rename-expandable",
    cl::desc("Relax precedences of expandable arrays by renaming (search only)"), cl::sub(Fuse));
cl::opt<std::string> PlanOut("plan", cl::desc("Write the fusion plan (JSON)"),
                             cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> ReportOut("report", cl::desc("Write the readable plan report ('-': stdout)"),
                               cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> DataDot("data-dot", cl::desc("Write the data-dependency graph (DOT)"),
                             cl::value_desc("file"), cl::sub(Fuse));
cl::opt<std::string> OrderDot("order-dot",
                              cl::desc("Write the order-of-execution graph with the plan (DOT)"),
                              cl::value_desc("file"), cl::sub(Fuse));

int fail(int Code, const llvm::Twine &Message) {
  llvm::errs() << "launchopt fuse: error: " << Message << "\n";
  return Code;
}

llvm::Error writeText(const std::string &Path, const std::string &Text) {
  if (Path == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    return llvm::Error::success();
  }
  return writeFileAtomically(Path, Text);
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

} // namespace

int runFuseCommand(int Argc, const char **Argv) {
  std::vector<const char *> Args{"launchopt"};
  Args.insert(Args.end(), Argv, Argv + Argc);
  std::string Errors;
  llvm::raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(static_cast<int>(Args.size()), Args.data(),
                                   "launchopt fuse: kernel fusion (scalable-kernel-fusion)\n",
                                   &ErrorStream))
    return fail(ExitUsageError, ErrorStream.str());
  if (ProblemPath.empty() == GenerateSpec.empty())
    return fail(ExitUsageError, "give exactly one of --problem or --generate");

  FusionProblem Problem;
  if (!GenerateSpec.empty()) {
    llvm::Expected<SyntheticProgramSpec> Spec = parseSpec(GenerateSpec);
    if (!Spec)
      return fail(ExitUsageError, llvm::toString(Spec.takeError()));
    Problem = generateSyntheticProgram(*Spec);
  } else {
    auto Buffer = llvm::MemoryBuffer::getFile(ProblemPath);
    if (!Buffer)
      return fail(ExitInputError, "cannot read '" + ProblemPath + "'");
    llvm::Expected<llvm::json::Value> Json = llvm::json::parse((*Buffer)->getBuffer());
    if (!Json)
      return fail(ExitInputError, llvm::toString(Json.takeError()));
    llvm::Expected<FusionProblem> Read = problemFromJson(*Json);
    if (!Read)
      return fail(ExitInputError, llvm::toString(Read.takeError()));
    Problem = std::move(*Read);
  }
  if (!WriteProblem.empty())
    if (llvm::Error E = writeText(WriteProblem, llvm::formatv("{0:2}", toJson(Problem)).str() + "\n"))
      return fail(ExitInputError, llvm::toString(std::move(E)));

  llvm::Expected<GpuDescription> Gpu =
      loadGpuDescription(GpuPath.empty() ? defaultGpuDescriptionPath() : GpuPath.getValue());
  if (!Gpu)
    return fail(ExitInputError, llvm::toString(Gpu.takeError()));

  FusionGraphs Graphs = buildFusionGraphs(Problem, RenameExpandable);
  ProjectionModel Model(Problem, Graphs, *Gpu);
  GroupEvaluator Evaluator(Model);

  SearchResult Result;
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
  if (SearchKind != Search::Genetic) {
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

  FusionPlan Plan = makeFusionPlan(Model, Result.Best);
  if (!PlanOut.empty())
    if (llvm::Error E =
            writeText(PlanOut, llvm::formatv("{0:2}", toJson(Plan, Problem)).str() + "\n"))
      return fail(ExitInputError, llvm::toString(std::move(E)));
  if (!ReportOut.empty()) {
    std::string Report;
    llvm::raw_string_ostream OS(Report);
    printPlanReport(OS, Plan, Problem);
    if (llvm::Error E = writeText(ReportOut, Report))
      return fail(ExitInputError, llvm::toString(std::move(E)));
  }
  if (!DataDot.empty())
    if (llvm::Error E = writeText(DataDot, dot(Problem, Graphs, nullptr)))
      return fail(ExitInputError, llvm::toString(std::move(E)));
  if (!OrderDot.empty())
    if (llvm::Error E = writeText(OrderDot, dot(Problem, Graphs, &Result.Best)))
      return fail(ExitInputError, llvm::toString(std::move(E)));
  return ExitSuccess;
}

} // namespace launchopt

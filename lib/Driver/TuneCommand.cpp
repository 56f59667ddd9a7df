#include "TuneCommand.h"

#include "Driver.h"
#include "SubcommandLine.h"
#include "Report.h"
#include "Rewrite/OutputFile.h"
#include "TransformPipeline.h"
#include "Tune/TuneSession.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <iostream>

namespace launchopt {

namespace {

namespace cl = llvm::cl;

cl::SubCommand Tune("tune", "Tune threshold, coarsening factor and aggregation granularity "
                            "for one program on the GPU");

cl::opt<std::string> Input(cl::Positional, cl::desc("<file.cu>"), cl::sub(Tune));
cl::opt<std::string> BuildCommand(
    "build",
    cl::desc("Shell command that builds one configuration: {src} the transformed file, {exe} "
             "the executable to write, {defines} the -D flags, {name} the configuration's name"),
    cl::value_desc("command"), cl::sub(Tune));
cl::opt<std::string> RunCommand("run",
                                cl::desc("Shell command that runs {exe} (and verifies it): a "
                                         "nonzero exit marks the configuration failed"),
                                cl::value_desc("command"), cl::sub(Tune));
cl::opt<std::string> TimeRegex(
    "time-regex",
    cl::desc("The run's time in ms: the first matching group of the last output line this "
             "matches (default: the median of a bench harness 'RESULT,...,OK,...' line, or "
             "'time_ms=<number>')"),
    cl::value_desc("regex"), cl::init(DefaultTimeRegex), cl::sub(Tune));
cl::opt<std::string> Thresholds("thresholds",
                                cl::desc("LAUNCHOPT_THRESHOLD values (default 32,128,256,1024)"),
                                cl::value_desc("list"), cl::init("32,128,256,1024"), cl::sub(Tune));
cl::opt<std::string> CoarsenFactors("cfactors",
                                    cl::desc("LAUNCHOPT_CFACTOR values (default 1,2,4,8)"),
                                    cl::value_desc("list"), cl::init("1,2,4,8"), cl::sub(Tune));
cl::opt<std::string> Granularities("granularities",
                                   cl::desc("Aggregation granularities, one transformed file "
                                            "each (warp, block, multiblock:<N>, grid; default "
                                            "warp,block,multiblock:8,grid)"),
                                   cl::value_desc("list"), cl::init("warp,block,multiblock:8,grid"),
                                   cl::sub(Tune));
cl::opt<std::string> AggThresholds(
    "agg-thresholds",
    cl::desc("LAUNCHOPT_AGG_THRESHOLD values, tried at warp and block granularity (default 2)"),
    cl::value_desc("list"), cl::init("2"), cl::sub(Tune));
cl::opt<unsigned> GuidedRuns("guided-runs",
                             cl::desc("Runs of the guided search (coordinate descent from "
                                      "threshold 256, factor 4, block; default 10)"),
                             cl::init(10), cl::sub(Tune));
cl::opt<bool> NoExhaustive("no-exhaustive", cl::desc("Skip the exhaustive sweep"), cl::sub(Tune));
cl::opt<unsigned> Confirm("confirm",
                          cl::desc("Then run the N fastest configurations again, in turn, and "
                                   "pick the lowest median (default 0: don't)"),
                          cl::value_desc("N"), cl::init(0), cl::sub(Tune));
cl::opt<unsigned> ConfirmRounds("confirm-rounds",
                                cl::desc("Runs of each configuration in the confirmation "
                                         "(default 3)"),
                                cl::value_desc("N"), cl::init(3), cl::sub(Tune));
cl::opt<std::string> OutDir("out",
                            cl::desc("Folder for the transformed files, plan.txt, bin/, logs/ "
                                     "and tune.csv (default: launchopt-tune, or the --from "
                                     "folder)"),
                            cl::value_desc("dir"), cl::sub(Tune));
cl::opt<bool> TransformOnly("transform-only",
                            cl::desc("Write the transformed files and plan.txt, then stop (the "
                                     "rest runs later with --from, or with launchopt-tune)"),
                            cl::sub(Tune));
cl::opt<std::string> From("from",
                          cl::desc("Build, run and search from the files a --transform-only "
                                   "left in <dir> (no input file, no parsing)"),
                          cl::value_desc("dir"), cl::sub(Tune));
cl::opt<unsigned> Jobs("jobs", cl::desc("Parallel builds (default 1)"), cl::init(1), cl::sub(Tune));
cl::opt<unsigned> Timeout("timeout", cl::desc("Seconds per build or run (default: none)"),
                          cl::init(0), cl::sub(Tune));
cl::opt<bool> BuildOnly("build-only", cl::desc("Build every configuration and stop"),
                        cl::sub(Tune));
cl::opt<bool> NoBuild("no-build", cl::desc("Run the executables an earlier --build-only left"),
                      cl::sub(Tune));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA toolkit whose headers are used for parsing"),
                              cl::value_desc("dir"), cl::sub(Tune));

const char *const Overview =
    "launchopt tune: finds the best threshold, coarsening factor and aggregation\n"
    "granularity for one program by building and running it.\n\n"
    "  launchopt tune <file.cu> --build '<command>' --run '<command>' [options] [-- <flags>]\n"
    "  launchopt tune <file.cu> --transform-only --out DIR [-- <flags>]\n"
    "  launchopt tune --from DIR --build '<command>' --run '<command>' [options]\n\n"
    "The input is transformed once per granularity (--threshold --coarsen --aggregate=G)\n"
    "into DIR; each configuration is built with its transformed file and the\n"
    "-DLAUNCHOPT_THRESHOLD/-DLAUNCHOPT_CFACTOR flags and run; a failed build, run or\n"
    "verification (nonzero exit) is never chosen. An exhaustive sweep (every\n"
    "configuration once) and a guided search (coordinate descent from the defaults,\n"
    "its own runs, at most --guided-runs) are printed side by side; every run is in\n"
    "DIR/tune.csv; the last line names the best configuration and the flags that\n"
    "reproduce it. launchopt-tune is the --from half without Clang, for a GPU machine.\n"
    "Exit status: 0 a best configuration was found, 1 input error or every\n"
    "configuration failed, 2 bad command line.\n";

int fail(int Code, const llvm::Twine &Message) {
  llvm::errs() << "launchopt tune: error: " << Message << "\n";
  return Code;
}

// Writes one T+C+A file per granularity of Space and plan.txt into Dir.
int transformInto(const clang::tooling::CompilationDatabase &Database, const TuneSpace &Space,
                  const std::string &Dir, TunePlan &Plan) {
  if (!llvm::sys::fs::exists(Input))
    return fail(ExitInputError, "cannot read '" + Input + "': no such file");
  auto Buffer = llvm::MemoryBuffer::getFile(Input);
  if (!Buffer)
    return fail(ExitInputError, "cannot read '" + Input + "': " + Buffer.getError().message());
  std::string Text = (*Buffer)->getBuffer().str();
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return fail(ExitInputError, "cannot create '" + Dir + "': " + EC.message());
  ParseEnvironment Env = defaultParseEnvironment();
  if (!CudaPath.empty())
    Env.CudaPath = CudaPath;
  Plan.Input = Input;
  Plan.Space = Space;
  llvm::StringRef Stem = llvm::sys::path::stem(Input);
  for (const std::string &G : Space.Granularities) {
    PipelineOptions Passes;
    Passes.Threshold.emplace();
    Passes.Coarsen.emplace();
    Passes.Aggregate.emplace();
    if (!parseAggregationGranularity(G, *Passes.Aggregate))
      return fail(ExitUsageError, "unknown granularity '" + G + "'");
    llvm::Expected<PipelineOutput> Out = runTransformPipeline(Database, Input, Text, Env, Passes);
    if (!Out)
      return fail(ExitInputError, llvm::toString(Out.takeError()));
    std::string Name = (Stem + "." + granularityFileName(G)).str();
    std::string Report;
    llvm::raw_string_ostream ReportStream(Report);
    printReportText(ReportStream, Out->Remarks);
    ReportStream.flush();
    for (auto [File, Contents] :
         {std::pair<std::string, const std::string *>{Name + ".cu", &Out->Text},
          {Name + ".report.txt", &Report}})
      if (llvm::Error E = writeOutput(Dir + "/" + File, *Contents))
        return fail(ExitInputError, llvm::toString(std::move(E)));
    Plan.Sources[G] = Name + ".cu";
    unsigned Applied = 0;
    for (const LaunchRemark &R : Out->Remarks)
      Applied += R.Applied;
    std::cout << "# " << G << ": " << Dir << "/" << Name << ".cu (" << Applied
              << " pass result(s) applied; reasons in " << Name << ".report.txt)\n";
  }
  if (llvm::Error E = writeOutput(Dir + "/plan.txt", formatPlan(Plan)))
    return fail(ExitInputError, llvm::toString(std::move(E)));
  return ExitSuccess;
}

} // namespace

int runTuneCommand(int Argc, const char **Argv) {
  SubcommandLine Line = splitSubcommandLine(Argc, Argv);
  int ArgCount = static_cast<int>(Line.Args.size());
  clang::tooling::CompilationDatabase &Database = *Line.Database;
  std::string Errors;
  llvm::raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(ArgCount, Line.Args.data(), Overview, &ErrorStream))
    return fail(ExitUsageError, ErrorStream.str());
  if (Input.empty() == From.empty())
    return fail(ExitUsageError, "give exactly one of <file.cu> and --from <dir> (see --help)");
  if (TransformOnly && !From.empty())
    return fail(ExitUsageError, "--transform-only needs <file.cu>, not --from");

  TuneSessionOptions Options;
  Options.BuildCommand = BuildCommand;
  Options.RunCommand = RunCommand;
  Options.TimeRegex = TimeRegex;
  Options.GuidedRuns = GuidedRuns;
  Options.Exhaustive = !NoExhaustive;
  Options.Confirm = Confirm;
  Options.ConfirmRounds = ConfirmRounds;
  Options.Jobs = Jobs;
  Options.TimeoutSeconds = Timeout;
  Options.BuildOnly = BuildOnly;
  Options.NoBuild = NoBuild;
  if (Jobs == 0)
    return fail(ExitUsageError, "--jobs must be at least 1");
  if (!TransformOnly) {
    std::string Problem = checkTuneCommands(Options);
    if (!Problem.empty())
      return fail(ExitUsageError, Problem);
  }
  // With --from, lists given on the command line narrow the plan's.
  bool FromPlan = !From.empty();
  TunePlan Plan;
  if (FromPlan) {
    std::string Error;
    if (!loadPlan(From, Plan, Error))
      return fail(ExitInputError, Error);
  }
  auto ListOf = [&](const cl::opt<std::string> &Option, const std::string &PlanValue) {
    return FromPlan && !Option.getNumOccurrences() ? PlanValue : Option.getValue();
  };
  std::string Problem =
      parseTuneSpace(ListOf(Thresholds, formatList(Plan.Space.Thresholds)),
                     ListOf(CoarsenFactors, formatList(Plan.Space.CoarsenFactors)),
                     ListOf(Granularities, formatList(Plan.Space.Granularities)), Options.Space,
                     ListOf(AggThresholds, formatList(Plan.Space.AggThresholds)));
  if (!Problem.empty())
    return fail(ExitUsageError, Problem);

  if (FromPlan) {
    Options.PlanDir = From;
    Options.Dir = OutDir.empty() ? From.getValue() : OutDir.getValue();
  } else {
    Options.PlanDir = Options.Dir =
        OutDir.empty() ? std::string("launchopt-tune") : OutDir.getValue();
    if (int Code = transformInto(Database, Options.Space, Options.Dir, Plan))
      return Code;
    if (TransformOnly) {
      std::cout << "# plan: " << Options.Dir << "/plan.txt (build, run and search with "
                << "launchopt tune --from " << Options.Dir << " or launchopt-tune --from "
                << Options.Dir << ")\n";
      return ExitSuccess;
    }
  }
  Options.Plan = Plan;
  return runTuneSession(Options, std::cout, std::cerr);
}

} // namespace launchopt

#include "Driver.h"

#include "FuseCommand.h"
#include "LaunchListing.h"
#include "Report.h"
#include "TransformPipeline.h"
#include "TuneCommand.h"
#include "Frontend/Frontend.h"
#include "Rewrite/OutputFile.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace launchopt {

namespace {

namespace cl = llvm::cl;

cl::OptionCategory Category("launchopt options");

cl::opt<bool> ListLaunches("list-launches",
                           cl::desc("Print every kernel launch site and what the analysis "
                                    "found about it, then exit"),
                           cl::cat(Category));
enum class Format { Text, Json };
cl::opt<Format> OutputFormat("format", cl::desc("Format of --list-launches and --report"),
                             cl::values(clEnumValN(Format::Text, "text", "human-readable (default)"),
                                        clEnumValN(Format::Json, "json", "JSON")),
                             cl::init(Format::Text), cl::cat(Category));
cl::opt<bool> Threshold("threshold",
                        cl::desc("Thresholding: launch a child from device code only when it "
                                 "has at least LAUNCHOPT_THRESHOLD threads, else run it "
                                 "serially in the parent thread"),
                        cl::cat(Category));
cl::opt<unsigned> ThresholdValue("threshold-value",
                                 cl::desc("Default of the LAUNCHOPT_THRESHOLD macro written into "
                                          "the output (default 256; a build can override it "
                                          "with -DLAUNCHOPT_THRESHOLD=N)"),
                                 cl::init(256), cl::cat(Category));
cl::opt<bool> Coarsen("coarsen",
                      cl::desc("Coarsening: each block of a child launched from device code "
                               "runs LAUNCHOPT_CFACTOR original blocks"),
                      cl::cat(Category));
cl::opt<unsigned> CoarsenFactor("coarsen-factor",
                                cl::desc("Default of the LAUNCHOPT_CFACTOR macro written into the "
                                         "output (default 4)"),
                                cl::init(4), cl::cat(Category));
cl::opt<std::string> Aggregate(
    "aggregate",
    cl::desc("Aggregation: the child grids launched by a warp, a block, a group of N blocks "
             "or the whole grid become one launch (warp|block|multiblock:N|grid)"),
    cl::value_desc("granularity"), cl::cat(Category));
cl::opt<unsigned> AggregateThreshold("aggregate-threshold",
                                     cl::desc("Default of the LAUNCHOPT_AGG_THRESHOLD macro: warp "
                                              "and block scopes with fewer launches launch them "
                                              "one by one (default 2)"),
                                     cl::init(2), cl::cat(Category));
cl::opt<bool> AssumeIndependent(
    "assume-independent-children",
    cl::desc("Also serialize launches that follow other launches into the same stream from "
             "the same parent thread (assumes those children do not depend on each other)"),
    cl::cat(Category));
cl::opt<std::string> OutputPath("o", cl::desc("Write the transformed source to <file> "
                                              "(atomically); default: standard output"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> InPlace("in-place", cl::desc("Replace the input file with the transformed source"),
                      cl::cat(Category));
cl::opt<std::string> ReportPath("report",
                                cl::desc("Write the per-launch-site report to <file> ('-' for "
                                         "standard output) in the --format chosen"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> IncludeRuntime(
    "include-runtime",
    cl::desc("Leave `#include <launchopt/...>` in the output (compile with -I<launchopt>/runtime/"
             "include) instead of embedding the runtime header, which is the default"),
    cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Do not print per-launch remarks to standard error"),
                    cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA toolkit whose headers are used for parsing"),
                              cl::value_desc("dir"), cl::cat(Category));

const char *const Overview =
    "launchopt: source-to-source optimizer for CUDA kernel launches.\n\n"
    "  launchopt [options] <file.cu> [-- <compiler flags>]\n"
    "  launchopt [options] -p <build dir with compile_commands.json> <file.cu>\n\n"
    "The output is the input text with edits; every launch site gets a remark on\n"
    "standard error saying what was done or why not. Exit status: 0 success,\n"
    "1 the input could not be processed (nothing is written), 2 bad command line.\n";

int fail(int Code, const llvm::Twine &Message) {
  llvm::errs() << "launchopt: error: " << Message << "\n";
  return Code;
}

// Adds "--" when the user gave neither "--" nor -p, so that no compilation
// database is searched for and the file is parsed with launchopt's flags alone.
std::vector<const char *> withCompileFlagsSeparator(int Argc, const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  bool HasSeparator = false, HasDatabase = false;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    HasSeparator |= A == "--";
    HasDatabase |= !HasSeparator && (A == "-p" || A.starts_with("-p=") || A == "--p" ||
                                     A.starts_with("--p="));
  }
  if (!HasSeparator && !HasDatabase)
    Args.push_back("--");
  return Args;
}

// The passes the options ask for, in the T -> C -> A order; none when
// --aggregate names no granularity.
std::optional<PipelineOptions> pipelineOptions() {
  PipelineOptions Passes;
  Passes.EmbedRuntime = !IncludeRuntime;
  if (Threshold) {
    Passes.Threshold.emplace();
    Passes.Threshold->DefaultThreshold = ThresholdValue;
    Passes.Threshold->AssumeIndependentChildren = AssumeIndependent;
  }
  if (Coarsen) {
    Passes.Coarsen.emplace();
    Passes.Coarsen->DefaultFactor = CoarsenFactor;
  }
  if (!Aggregate.empty()) {
    Passes.Aggregate.emplace();
    if (!parseAggregationGranularity(Aggregate, *Passes.Aggregate))
      return std::nullopt;
    Passes.Aggregate->DefaultThreshold = AggregateThreshold;
    Passes.Aggregate->AssumeIndependentChildren = AssumeIndependent;
  }
  return Passes;
}

// --list-launches: every launch site and what the analysis found, to Output.
int listLaunches(const clang::tooling::CompilationDatabase &Compilations, const std::string &Input,
                 const ParseEnvironment &Env, std::string &Text, const std::string &Output) {
  std::unique_ptr<ParsedFile> Parsed = parseCudaFile(Compilations, Input, Env, &Text);
  if (!Parsed)
    return fail(ExitInputError, "'" + Input + "' could not be parsed");
  clang::ASTContext &Ctx = Parsed->Unit->getASTContext();
  LaunchAnalysis Launches = analyzeLaunches(Ctx);
  std::string Listing;
  llvm::raw_string_ostream OS(Listing);
  if (OutputFormat == Format::Json)
    printLaunchesJson(OS, Ctx, Launches);
  else
    printLaunchesText(OS, Ctx, Launches);
  OS.flush();
  if (llvm::Error E = writeOutput(Output, Listing))
    return fail(ExitInputError, llvm::toString(std::move(E)));
  return ExitSuccess;
}

// The per-launch-site report in the --format chosen.
std::string reportText(const std::vector<LaunchRemark> &Remarks) {
  std::string Report;
  llvm::raw_string_ostream OS(Report);
  if (OutputFormat == Format::Json)
    printReportJson(OS, Remarks);
  else
    printReportText(OS, Remarks);
  OS.flush();
  return Report;
}

} // namespace

int runDriver(int Argc, const char **Argv) {
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "fuse")
    return runFuseCommand(Argc - 1, Argv + 1);
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "tune")
    return runTuneCommand(Argc - 1, Argv + 1);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "launchopt 0.1 (Clang/LLVM " << LLVM_VERSION_STRING << ", CUDA dynamic parallelism CDP2)\n";
  });
  cl::HideUnrelatedOptions(Category);
  std::vector<const char *> Args = withCompileFlagsSeparator(Argc, Argv);
  int ArgCount = static_cast<int>(Args.size());
  std::string ParserErrors;
  llvm::raw_string_ostream ParserErrorStream(ParserErrors);
  auto Parser = clang::tooling::CommonOptionsParser::create(ArgCount, Args.data(), Category,
                                                            cl::ZeroOrMore, Overview);
  if (!Parser)
    return fail(ExitUsageError, llvm::toString(Parser.takeError()));
  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  if (Sources.size() != 1)
    return fail(ExitUsageError, "expected exactly one input file (see --help)");
  bool AnyPass = Threshold || Coarsen || !Aggregate.empty();
  if (!ListLaunches && !AnyPass)
    return fail(ExitUsageError,
                "nothing to do: choose passes (--threshold, --coarsen, --aggregate=...) or "
                "--list-launches");
  std::optional<PipelineOptions> Passes = pipelineOptions();
  if (!Passes)
    return fail(ExitUsageError, "--aggregate takes warp, block, multiblock:<N> or grid");
  if (InPlace && !OutputPath.empty())
    return fail(ExitUsageError, "--in-place and -o cannot be used together");
  if (ListLaunches && (InPlace || AnyPass))
    return fail(ExitUsageError, "--list-launches only lists; it cannot be combined with passes");

  const std::string &Input = Sources.front();
  if (!llvm::sys::fs::exists(Input))
    return fail(ExitInputError, "cannot read '" + Input + "': no such file");
  auto Buffer = llvm::MemoryBuffer::getFile(Input);
  if (!Buffer)
    return fail(ExitInputError, "cannot read '" + Input + "': " + Buffer.getError().message());
  std::string Text = (*Buffer)->getBuffer().str();

  std::string Output = InPlace ? Input : OutputPath.empty() ? std::string("-") : OutputPath.getValue();
  for (const std::string &Path : {Output, ReportPath.getValue()})
    if (!Path.empty() && Path != "-")
      if (llvm::Error E = checkWritable(Path))
        return fail(ExitInputError, llvm::toString(std::move(E)));

  ParseEnvironment Env = defaultParseEnvironment();
  if (!CudaPath.empty())
    Env.CudaPath = CudaPath;

  if (ListLaunches)
    return listLaunches(Parser->getCompilations(), Input, Env, Text, Output);

  llvm::Expected<PipelineOutput> Transformed =
      runTransformPipeline(Parser->getCompilations(), Input, Text, Env, *Passes);
  if (!Transformed)
    return fail(ExitInputError, llvm::toString(Transformed.takeError()));
  Text = std::move(Transformed->Text);
  const std::vector<LaunchRemark> &Remarks = Transformed->Remarks;

  if (!Quiet)
    printRemarks(llvm::errs(), Remarks);
  if (!ReportPath.empty())
    if (llvm::Error E = writeOutput(ReportPath, reportText(Remarks)))
      return fail(ExitInputError, llvm::toString(std::move(E)));
  if (llvm::Error E = writeOutput(Output, Text))
    return fail(ExitInputError, llvm::toString(std::move(E)));
  return ExitSuccess;
}

} // namespace launchopt

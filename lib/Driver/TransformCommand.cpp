#include "TransformCommand.h"

#include "AutoPlanning.h"
#include "CommandSupport.h"
#include "CoverageSummary.h"
#include "DroppedLaunchRecovery.h"
#include "LaunchListing.h"
#include "Report.h"
#include "TransformPipeline.h"
#include "Rewrite/OutputFile.h"
#include "Support/MakeError.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <deque>
#include <set>

namespace launchopt {

namespace {

namespace cl = llvm::cl;

const char *const Command = "launchopt";

cl::OptionCategory Category("launchopt options");

cl::opt<bool> ListLaunches("list-launches",
                           cl::desc("Print every kernel launch site and what the analysis "
                                    "found about it, then exit"),
                           cl::cat(Category));
cl::opt<bool> Summary("summary",
                      cl::desc("With --list-launches: over every input file, how many device-side "
                               "launch sites each pass can transform, and its refusals grouped "
                               "by reason (exit 1 when a file is left out: it does not parse)"),
                      cl::cat(Category));
enum class Format { Text, Json };
cl::opt<Format>
    OutputFormat("format", cl::desc("Format of --list-launches and --report"),
                 cl::values(clEnumValN(Format::Text, "text", "human-readable (default)"),
                            clEnumValN(Format::Json, "json", "JSON")),
                 cl::init(Format::Text), cl::cat(Category));
cl::opt<bool> Auto("auto",
                   cl::desc("Choose per device-side launch site among the passes that can take it "
                            "(thresholding, coarsening, aggregation at each granularity, launch "
                            "removal, SPAWN, promotion) with a cost model; the report gives each "
                            "choice with the model's numbers"),
                   cl::cat(Category));
cl::opt<std::string> LaunchCostsPath("launch-costs",
                                     cl::desc("With --auto: the GPU's launch costs (default: the "
                                              "H100's, gpus/h100-launch.json)"),
                                     cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> AssumeIndependent(
    "assume-independent-children",
    cl::desc("Also serialize launches that follow other launches into the same stream from "
             "the same parent thread (assumes those children do not depend on each other)"),
    cl::cat(Category));
cl::opt<std::string> OutputPath("o",
                                cl::desc("Write the transformed source to <file> "
                                         "(atomically); default: standard output"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> InPlace("in-place", cl::desc("Replace each input file with its transformed source"),
                      cl::cat(Category));
cl::opt<std::string> OutputDir("output-dir",
                               cl::desc("Write each transformed source to <dir>/<its file name> "
                                        "(atomically; several input files are one program)"),
                               cl::value_desc("dir"), cl::cat(Category));
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

// The command-line options of one registered pass: its flag and its own
// options, made from the registry so that a new pass needs no edit here.
struct PassOptions {
  const RegisteredPass *Pass;
  // cl::opt<bool> for a flag that takes no value, else cl::opt<std::string>.
  std::unique_ptr<cl::Option> Flag;
  std::vector<std::pair<const PassOption *, std::unique_ptr<cl::Option>>> Options;

  bool chosen() const { return Flag->getNumOccurrences() > 0; }

  PassArguments arguments() const {
    PassArguments Arguments = Pass->defaultArguments();
    if (Pass->Description.Value != FlagValue::None)
      Arguments.Value = static_cast<cl::opt<std::string> &>(*Flag).getValue();
    Arguments.Shared.AssumeIndependentChildren = AssumeIndependent;
    for (const auto &[Option, Parsed] : Options)
      if (Option->IsNumber)
        Arguments.Options[Option->Name] =
            std::to_string(static_cast<cl::opt<unsigned> &>(*Parsed).getValue());
      else
        Arguments.Options[Option->Name] = static_cast<cl::opt<std::string> &>(*Parsed).getValue();
    return Arguments;
  }
};

std::vector<PassOptions> makePassOptions() {
  std::vector<PassOptions> All;
  for (const RegisteredPass &Pass : registeredPasses()) {
    const PassDescription &D = Pass.Description;
    PassOptions O{&Pass, nullptr, {}};
    if (D.Value == FlagValue::None)
      O.Flag = std::make_unique<cl::opt<bool>>(llvm::StringRef(Pass.Flag), cl::desc(D.Help),
                                               cl::cat(Category));
    else
      O.Flag = std::make_unique<cl::opt<std::string>>(
          llvm::StringRef(Pass.Flag), cl::desc(D.Help),
          D.Value == FlagValue::Optional ? cl::ValueOptional : cl::ValueRequired,
          cl::value_desc(D.ValueName), cl::cat(Category));
    for (const PassOption &Option : D.Options) {
      // cl::desc keeps a reference: the text must outlive the option.
      static std::deque<std::string> Helps;
      llvm::StringRef Help =
          Helps.emplace_back(Option.Description + " (default " + Option.Default + ")");
      std::unique_ptr<cl::Option> Parsed;
      if (Option.IsNumber)
        Parsed = std::make_unique<cl::opt<unsigned>>(
            llvm::StringRef(Option.Name), cl::desc(Help),
            cl::init(static_cast<unsigned>(std::stoul(Option.Default))), cl::cat(Category));
      else
        Parsed =
            std::make_unique<cl::opt<std::string>>(llvm::StringRef(Option.Name), cl::desc(Help),
                                                   cl::init(Option.Default), cl::cat(Category));
      O.Options.emplace_back(&Option, std::move(Parsed));
    }
    All.push_back(std::move(O));
  }
  return All;
}

std::string overview() {
  std::string Passes;
  for (const RegisteredPass &P : registeredPasses())
    Passes += "  " + P.Letter + "  --" + P.Flag + "\n";
  return "launchopt: source-to-source optimizer for CUDA kernel launches.\n\n"
         "  launchopt --auto <file.cu>... [options] [-- <compiler flags>]   (the one to start with)\n"
         "  launchopt [options] <file.cu> [-- <compiler flags>]\n"
         "  launchopt [options] -p <build dir with compile_commands.json> <file.cu>\n"
         "  launchopt [options] --output-dir <dir> | --in-place <a.cu> <b.cu> ... [-- <flags>]\n"
         "      several files of one program (-rdc): a child defined in one file and\n"
         "      launched from another is transformed; -p without files takes every .cu\n"
         "      file of the compilation database\n"
         "  launchopt fuse ... | launchopt tune ...   (see launchopt fuse|tune --help)\n\n"
         "The passes run in this order, whatever the order of their flags:\n" +
         Passes +
         "\nThe output is the input text with edits; every launch site gets a remark on\n"
         "standard error saying what was done or why not. Exit status: 0 success,\n"
         "1 the input could not be processed (nothing is written), 2 bad command line.\n";
}

// Adds "--" when the user gave neither "--" nor -p, so that no compilation
// database is searched for and the file is parsed with launchopt's flags alone.
std::vector<const char *> withCompileFlagsSeparator(int Argc, const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  bool HasSeparator = false, HasDatabase = false;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    HasSeparator |= A == "--";
    HasDatabase |=
        !HasSeparator && (A == "-p" || A.starts_with("-p=") || A == "--p" || A.starts_with("--p="));
  }
  if (!HasSeparator && !HasDatabase)
    Args.push_back("--");
  return Args;
}

// --list-launches: every launch site and what the analysis found, to Output.
int listLaunches(const clang::tooling::CompilationDatabase &Compilations, const std::string &Input,
                 const ParseEnvironment &Env, std::string &Text, const std::string &Output) {
  RecoveredParse Recovered = parseRecoveringDroppedLaunches(Compilations, Input, Env, Text);
  if (!Recovered.Parsed)
    return fail(Command, ExitInputError, "'" + Input + "' could not be parsed");
  clang::ASTContext &Ctx = Recovered.Parsed->Unit->getASTContext();
  LaunchAnalysis Launches = analyzeLaunches(Ctx);
  restoreInputPositions(Recovered, Text, Launches);
  std::string Listing;
  llvm::raw_string_ostream OS(Listing);
  if (OutputFormat == Format::Json)
    printLaunchesJson(OS, Ctx, Launches);
  else
    printLaunchesText(OS, Ctx, Launches);
  OS.flush();
  if (llvm::Error E = writeOutput(Output, Listing))
    return fail(Command, ExitInputError, llvm::toString(std::move(E)));
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

// --list-launches --summary over Sources, to -o or standard output.
int summarize(const clang::tooling::CompilationDatabase &Compilations,
              const std::vector<std::string> &Sources) {
  if (InPlace || !ReportPath.empty())
    return fail(Command, ExitUsageError, "--summary writes no source and no report");
  std::string Output = OutputPath.empty() ? std::string("-") : OutputPath.getValue();
  if (Output != "-")
    if (llvm::Error E = checkWritable(Output))
      return fail(Command, ExitInputError, llvm::toString(std::move(E)));
  llvm::Expected<Coverage> Measured =
      measureCoverage(Compilations, Sources, parseEnvironmentFor(CudaPath));
  if (!Measured)
    return fail(Command, ExitInputError, llvm::toString(Measured.takeError()));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (OutputFormat == Format::Json)
    printCoverageJson(OS, *Measured);
  else
    printCoverageText(OS, *Measured);
  OS.flush();
  if (llvm::Error E = writeOutput(Output, Text))
    return fail(Command, ExitInputError, llvm::toString(std::move(E)));
  // The figures are written; a file left out of them still fails the run.
  return Measured->NotRead.empty() ? ExitSuccess : ExitInputError;
}

std::string passFlagList() {
  std::string List;
  for (const RegisteredPass &P : registeredPasses())
    List += (List.empty() ? "--" : ", --") + P.Flag +
            (P.Description.Value == FlagValue::Required ? "=..." : "");
  return List;
}

// Every .cu file of the compilation database, for -p without input files:
// the whole program.
std::vector<std::string> cudaFilesOf(const clang::tooling::CompilationDatabase &Compilations) {
  std::vector<std::string> Files;
  for (const std::string &File : Compilations.getAllFiles())
    if (llvm::StringRef(File).ends_with(".cu"))
      Files.push_back(File);
  std::sort(Files.begin(), Files.end());
  return Files;
}

// Where each input's transformed source goes: standard output, -o, the
// input itself (--in-place) or <dir>/<its name> (--output-dir). The error is
// a usage error: nothing has been read or written.
llvm::Expected<std::vector<std::string>> outputPaths(const std::vector<std::string> &Sources) {
  if (Sources.size() == 1 && OutputDir.empty())
    return std::vector<std::string>{InPlace              ? Sources.front()
                                    : OutputPath.empty() ? std::string("-")
                                                         : OutputPath.getValue()};
  if (InPlace)
    return Sources;
  std::vector<std::string> Outputs;
  std::set<std::string> Names;
  for (const std::string &Input : Sources) {
    llvm::StringRef Name = llvm::sys::path::filename(Input);
    if (!Names.insert(Name.str()).second)
      return makeError("two input files are named '" + Name +
                       "': --output-dir would write both to one file");
    llvm::SmallString<256> Output(OutputDir.getValue());
    llvm::sys::path::append(Output, Name);
    llvm::SmallString<256> RealInput, RealOutput;
    if (!llvm::sys::fs::real_path(Input, RealInput) &&
        !llvm::sys::fs::real_path(Output, RealOutput) && RealInput == RealOutput)
      return makeError("--output-dir '" + OutputDir + "' would overwrite the input '" + Input +
                       "' (use --in-place to replace the inputs)");
    Outputs.push_back(Output.str().str());
  }
  return Outputs;
}

// For several files: per file, what each pass did with its launch sites.
void printFileSummaries(llvm::raw_ostream &OS, const std::vector<ProgramSource> &Program,
                        const std::vector<PipelineOutput> &Transformed,
                        const std::vector<std::string> &Outputs) {
  for (size_t I = 0; I < Program.size(); ++I) {
    std::vector<std::pair<std::string, std::pair<unsigned, unsigned>>> PerPass;
    for (const LaunchRemark &R : Transformed[I].Remarks) {
      if (!R.Subject.empty() || R.Note || !findPass(R.Pass))
        continue;
      auto It = std::find_if(PerPass.begin(), PerPass.end(),
                             [&](const auto &P) { return P.first == R.Pass; });
      if (It == PerPass.end())
        It = PerPass.insert(PerPass.end(), {R.Pass, {0, 0}});
      It->second.first += R.Applied;
      ++It->second.second;
    }
    OS << Command << ": " << Program[I].Path << " -> " << Outputs[I] << ":";
    if (PerPass.empty())
      OS << (Transformed[I].Text == Program[I].Text
                 ? " no launch sites"
                 : " no launch sites; copies of its kernels for launches in other files");
    for (size_t P = 0; P < PerPass.size(); ++P)
      OS << (P ? ", " : " ") << PerPass[P].first << " " << PerPass[P].second.first << " of "
         << PerPass[P].second.second;
    OS << "\n";
  }
}

} // namespace

int runTransformCommand(int Argc, const char **Argv) {
  static std::vector<PassOptions> Passes = makePassOptions();
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "launchopt 0.1 (Clang/LLVM " << LLVM_VERSION_STRING
       << ", CUDA dynamic parallelism CDP2)\n";
  });
  cl::HideUnrelatedOptions(Category);
  std::vector<const char *> Args = withCompileFlagsSeparator(Argc, Argv);
  int ArgCount = static_cast<int>(Args.size());
  std::string Overview = overview();
  auto Parser = clang::tooling::CommonOptionsParser::create(ArgCount, Args.data(), Category,
                                                            cl::ZeroOrMore, Overview.c_str());
  if (!Parser)
    return fail(Command, ExitUsageError, llvm::toString(Parser.takeError()));
  std::vector<std::string> Sources = Parser->getSourcePathList();
  if (Sources.empty())
    Sources = cudaFilesOf(Parser->getCompilations());
  if (Summary && !ListLaunches)
    return fail(Command, ExitUsageError, "--summary goes with --list-launches");
  if (Summary)
    return summarize(Parser->getCompilations(), Sources);
  if (Sources.empty())
    return fail(Command, ExitUsageError, "expected an input file (see --help)");
  std::vector<std::pair<const RegisteredPass *, PassArguments>> Chosen;
  for (const PassOptions &P : Passes)
    if (P.chosen())
      Chosen.push_back({P.Pass, P.arguments()});
  if (Auto && (!Chosen.empty() || ListLaunches))
    return fail(Command, ExitUsageError,
                "--auto chooses the passes itself: it goes without pass flags and --list-launches");
  if (!LaunchCostsPath.empty() && !Auto)
    return fail(Command, ExitUsageError, "--launch-costs goes with --auto");
  if (!ListLaunches && !Auto && Chosen.empty())
    return fail(Command, ExitUsageError,
                "nothing to do: choose passes (" + passFlagList() + "), --auto or --list-launches");
  llvm::Expected<PipelineOptions> Pipeline = makePipeline(Chosen);
  if (!Pipeline)
    return fail(Command, ExitUsageError, llvm::toString(Pipeline.takeError()));
  Pipeline->EmbedRuntime = !IncludeRuntime;
  if (InPlace && !OutputPath.empty())
    return fail(Command, ExitUsageError, "--in-place and -o cannot be used together");
  if (!OutputDir.empty() && (InPlace || !OutputPath.empty()))
    return fail(Command, ExitUsageError, "--output-dir goes without -o and --in-place");
  if (ListLaunches && (InPlace || !OutputDir.empty() || !Chosen.empty()))
    return fail(Command, ExitUsageError,
                "--list-launches only lists; it cannot be combined with passes");
  if (Sources.size() > 1) {
    if (ListLaunches)
      return fail(Command, ExitUsageError,
                  "--list-launches lists one file; --list-launches --summary takes several");
    if (!OutputPath.empty())
      return fail(Command, ExitUsageError,
                  "-o names one output file; several input files need --output-dir <dir> or "
                  "--in-place");
    if (!InPlace && OutputDir.empty())
      return fail(Command, ExitUsageError,
                  "several input files need --output-dir <dir> or --in-place (each file gets its "
                  "own output)");
  }
  llvm::Expected<std::vector<std::string>> Outputs = outputPaths(Sources);
  if (!Outputs)
    return fail(Command, ExitUsageError, llvm::toString(Outputs.takeError()));

  std::vector<ProgramSource> Program;
  for (const std::string &Input : Sources) {
    llvm::Expected<std::string> Read = readInputFile(Input);
    if (!Read)
      return fail(Command, ExitInputError, llvm::toString(Read.takeError()));
    Program.push_back({Input, std::move(*Read)});
  }
  if (!OutputDir.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(OutputDir))
      return fail(Command, ExitInputError,
                  "cannot create the output directory '" + OutputDir + "': " + EC.message());
  std::vector<std::string> Written = *Outputs;
  Written.push_back(ReportPath.getValue());
  for (const std::string &Path : Written)
    if (!Path.empty() && Path != "-")
      if (llvm::Error E = checkWritable(Path))
        return fail(Command, ExitInputError, llvm::toString(std::move(E)));

  ParseEnvironment Env = parseEnvironmentFor(CudaPath);
  if (ListLaunches)
    return listLaunches(Parser->getCompilations(), Program.front().Path, Env, Program.front().Text,
                        Outputs->front());

  std::vector<LaunchRemark> Remarks;
  if (Auto) {
    llvm::Expected<LaunchCosts> Costs = loadLaunchCosts(
        LaunchCostsPath.empty() ? defaultLaunchCostsPath() : LaunchCostsPath.getValue());
    if (!Costs)
      return fail(Command, ExitInputError, llvm::toString(Costs.takeError()));
    SharedPassSettings Shared;
    Shared.AssumeIndependentChildren = AssumeIndependent;
    llvm::Expected<AutoPipeline> Planned =
        planAutoPipeline(Parser->getCompilations(), Program, Env, Shared, *Costs);
    if (!Planned)
      return fail(Command, ExitInputError, llvm::toString(Planned.takeError()));
    Planned->Pipeline.EmbedRuntime = Pipeline->EmbedRuntime;
    *Pipeline = std::move(Planned->Pipeline);
    Remarks = std::move(Planned->Decisions);
  }
  llvm::Expected<std::vector<PipelineOutput>> Transformed =
      runProgramPipeline(Parser->getCompilations(), Program, Env, *Pipeline);
  if (!Transformed)
    return fail(Command, ExitInputError, llvm::toString(Transformed.takeError()));
  for (const PipelineOutput &File : *Transformed)
    Remarks.insert(Remarks.end(), File.Remarks.begin(), File.Remarks.end());

  if (!Quiet) {
    printRemarks(llvm::errs(), Remarks);
    if (Program.size() > 1)
      printFileSummaries(llvm::errs(), Program, *Transformed, *Outputs);
  }
  if (!ReportPath.empty())
    if (llvm::Error E = writeOutput(ReportPath, reportText(Remarks)))
      return fail(Command, ExitInputError, llvm::toString(std::move(E)));
  for (size_t I = 0; I < Program.size(); ++I)
    if (llvm::Error E = writeOutput((*Outputs)[I], (*Transformed)[I].Text))
      return fail(Command, ExitInputError, llvm::toString(std::move(E)));
  return ExitSuccess;
}

} // namespace launchopt

#include "TuneCommand.h"

#include "CommandSupport.h"
#include "Report.h"
#include "SubcommandLine.h"
#include "TransformPipeline.h"
#include "Rewrite/OutputFile.h"
#include "Support/MakeError.h"
#include "Tune/TuneCommandLine.h"
#include "Tune/TuneParameters.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <iostream>

namespace launchopt {

namespace {

const char *const Command = "launchopt tune";

// The pipeline of the tuned passes (Passes.def's tunables) at their defaults,
// the variant as the value of its pass's flag.
llvm::Expected<PipelineOptions> tunedPipeline(const std::string &Variant) {
  std::vector<std::pair<const RegisteredPass *, PassArguments>> Chosen;
  for (const std::string &Flag : tunedPassFlags()) {
    const RegisteredPass *Pass = findPass(Flag);
    if (!Pass)
      return makeError("internal error: no registered pass --" + Flag);
    PassArguments Arguments = Pass->defaultArguments();
    if (Flag == tuneVariant().PassFlag)
      Arguments.Value = Variant;
    Chosen.push_back({Pass, Arguments});
  }
  return makePipeline(Chosen);
}

// Writes one transformed file per variant of Space and plan.txt into Dir.
int transformInto(const clang::tooling::CompilationDatabase &Database, const TuneCommandLine &Line,
                  const TuneSpace &Space, const std::string &Dir, TunePlan &Plan) {
  llvm::Expected<std::string> Text = readInputFile(Line.Input);
  if (!Text)
    return fail(Command, ExitInputError, llvm::toString(Text.takeError()));
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return fail(Command, ExitInputError, "cannot create '" + Dir + "': " + EC.message());
  ParseEnvironment Env = parseEnvironmentFor(Line.CudaPath);
  Plan.Input = Line.Input;
  Plan.Space = Space;
  llvm::StringRef Stem = llvm::sys::path::stem(Line.Input);
  for (const std::string &V : Space.Variants) {
    llvm::Expected<PipelineOptions> Pipeline = tunedPipeline(V);
    if (!Pipeline)
      return fail(Command, ExitUsageError, llvm::toString(Pipeline.takeError()));
    llvm::Expected<PipelineOutput> Out =
        runTransformPipeline(Database, Line.Input, *Text, Env, *Pipeline);
    if (!Out)
      return fail(Command, ExitInputError, llvm::toString(Out.takeError()));
    std::string Name = (Stem + "." + variantFileName(V)).str();
    std::string Report;
    llvm::raw_string_ostream ReportStream(Report);
    printReportText(ReportStream, Out->Remarks);
    ReportStream.flush();
    for (auto [File, Contents] :
         {std::pair<std::string, const std::string *>{Name + ".cu", &Out->Text},
          {Name + ".report.txt", &Report}})
      if (llvm::Error E = writeOutput(Dir + "/" + File, *Contents))
        return fail(Command, ExitInputError, llvm::toString(std::move(E)));
    Plan.Sources[V] = Name + ".cu";
    unsigned Applied = 0;
    for (const LaunchRemark &R : Out->Remarks)
      Applied += R.Applied;
    std::cout << "# " << V << ": " << Dir << "/" << Name << ".cu (" << Applied
              << " pass result(s) applied; reasons in " << Name << ".report.txt)\n";
  }
  if (llvm::Error E = writeOutput(Dir + "/plan.txt", formatPlan(Plan)))
    return fail(Command, ExitInputError, llvm::toString(std::move(E)));
  return ExitSuccess;
}

} // namespace

int runTuneCommand(int Argc, const char **Argv) {
  SubcommandLine Split = splitSubcommandLine(Argc, Argv);
  // Split.Args holds "launchopt", "tune" and the options before "--".
  std::vector<std::string> Args(Split.Args.begin() + 2, Split.Args.end());
  OrError<TuneCommandLine> Parsed = parseTuneCommandLine(Args, TuneTool::Launchopt);
  if (!Parsed)
    return fail(Command, ExitUsageError, Parsed.error());
  const TuneCommandLine &Line = *Parsed;
  if (Line.Help) {
    std::cout << tuneHelp(TuneTool::Launchopt);
    return ExitSuccess;
  }

  TuneSessionOptions Options = Line.Session;
  TunePlan Plan;
  if (!Line.From.empty()) {
    OrError<TunePlan> Loaded = loadPlan(Line.From);
    if (!Loaded)
      return fail(Command, ExitInputError, Loaded.error());
    Plan = *Loaded;
  }
  OrError<TuneSpace> Space = resolveTuneSpace(Line, Line.From.empty() ? nullptr : &Plan);
  if (!Space)
    return fail(Command, ExitUsageError, Space.error());
  Options.Space = *Space;

  if (!Line.From.empty()) {
    Options.PlanDir = Line.From;
    Options.Dir = Line.OutDir.empty() ? Line.From : Line.OutDir;
  } else {
    Options.PlanDir = Options.Dir =
        Line.OutDir.empty() ? std::string("launchopt-tune") : Line.OutDir;
    if (int Code = transformInto(*Split.Database, Line, Options.Space, Options.Dir, Plan))
      return Code;
    if (Line.TransformOnly) {
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

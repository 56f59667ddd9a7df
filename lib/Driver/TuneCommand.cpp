#include "TuneCommand.h"

#include "AutoPlanning.h"
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
#include <algorithm>
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

// launchopt tune --auto: the file of Variant is --auto's output with the
// variant's pass fixed to it. Start receives the plan's own choice (from the
// file of the first variant, planned without the variant fixed).
llvm::Expected<PipelineOutput> autoVariant(const clang::tooling::CompilationDatabase &Database,
                                           const TuneCommandLine &Line, const std::string &Text,
                                           const ParseEnvironment &Env, const std::string &Variant,
                                           std::optional<TuneConfig> &Start) {
  llvm::Expected<LaunchCosts> Costs = loadLaunchCosts(defaultLaunchCostsPath());
  if (!Costs)
    return Costs.takeError();
  std::vector<ProgramSource> Program = {{Line.Input, Text}};
  if (!Start) {
    llvm::Expected<AutoPipeline> Free =
        planAutoPipeline(Database, Program, Env, SharedPassSettings(), *Costs);
    if (!Free)
      return Free.takeError();
    TuneConfig Chosen = defaultTuneConfig();
    // A pass's option (threshold-value) is the default of its macro.
    for (const PlannedPass &P : Free->Planned) {
      if (P.Flag == tuneVariant().PassFlag)
        Chosen.Variant = P.Value;
      for (size_t M = 0; M < tuneMacros().size(); ++M)
        for (const auto &[Option, Value] : P.Options)
          if (tuneMacros()[M].PassFlag == P.Flag)
            Chosen.Values[M] = static_cast<unsigned>(std::stoul(Value));
    }
    Start = Chosen;
  }
  llvm::Expected<AutoPipeline> Fixed = planAutoPipeline(
      Database, Program, Env, SharedPassSettings(), *Costs, {{tuneVariant().PassFlag, Variant}});
  if (!Fixed)
    return Fixed.takeError();
  llvm::Expected<PipelineOutput> Out =
      runTransformPipeline(Database, Line.Input, Text, Env, Fixed->Pipeline);
  if (Out)
    Out->Remarks.insert(Out->Remarks.begin(), Fixed->Decisions.begin(), Fixed->Decisions.end());
  return Out;
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
  // By index: under --auto, the plan's own granularity joins the list once
  // the first file is planned.
  for (size_t I = 0; I < Plan.Space.Variants.size(); ++I) {
    const std::string V = Plan.Space.Variants[I];
    llvm::Expected<PipelineOptions> Pipeline = tunedPipeline(V);
    if (!Pipeline)
      return fail(Command, ExitUsageError, llvm::toString(Pipeline.takeError()));
    llvm::Expected<PipelineOutput> Out =
        Line.Auto ? autoVariant(Database, Line, *Text, Env, V, Plan.Start)
                  : runTransformPipeline(Database, Line.Input, *Text, Env, *Pipeline);
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
    if (Plan.Start && std::find(Plan.Space.Variants.begin(), Plan.Space.Variants.end(),
                                Plan.Start->Variant) == Plan.Space.Variants.end())
      Plan.Space.Variants.push_back(Plan.Start->Variant);
  }
  // The guided search starts at the plan's values: they join the lists.
  if (Plan.Start)
    for (size_t M = 0; M < Plan.Space.Values.size() && M < Plan.Start->Values.size(); ++M) {
      std::vector<unsigned> &Values = Plan.Space.Values[M];
      if (std::find(Values.begin(), Values.end(), Plan.Start->Values[M]) == Values.end()) {
        Values.push_back(Plan.Start->Values[M]);
        std::sort(Values.begin(), Values.end());
      }
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
  // --auto refines one plan in a few runs: the guided search alone.
  if (Line.Auto)
    Options.Exhaustive = false;
  if (Line.Auto && !Line.From.empty())
    return fail(Command, ExitUsageError,
                "--auto transforms the input; --from reads a plan (its start is in plan.txt)");
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
    Options.Space = Plan.Space;
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

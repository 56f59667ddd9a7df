#include "TuneSession.h"

#include "ShellCommands.h"
#include "TuneParameters.h"
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>

namespace launchopt {

const char *const DefaultTimeRegex =
    "^RESULT,[^,]*,[^,]*,[^,]*,OK,[0-9]*,([0-9.eE+-]+)|time_ms=([0-9.eE+-]+)";

namespace {

std::string formatMs(double Ms) {
  std::ostringstream S;
  S << std::fixed << std::setprecision(4) << Ms;
  return S.str();
}

// The tune.csv columns of the tunables: those shown at their default, the
// variant, the others (as in a configuration's name).
std::string parameterColumns() {
  std::string Columns;
  for (int Slot : parameterOrder())
    Columns += (Columns.empty() ? "" : ",") +
               (Slot == VariantSlot ? tuneVariant().Noun : tuneMacros()[Slot].Column);
  return Columns;
}

std::string parameterValues(const TuneConfig &C) {
  std::string Values;
  for (int Slot : parameterOrder())
    Values += (Values.empty() ? "" : ",") +
              (Slot == VariantSlot ? C.Variant : std::to_string(C.Values[Slot]));
  return Values;
}

// One build or run of a configuration, as tune.csv records it.
struct RunRecord {
  std::string Search;
  TuneConfig Config;
  std::string Status; // ok, build-failed, run-failed, timeout, no-time
  std::optional<double> Ms;
  double WallSeconds = 0;
  std::string Log, Note;
};

class TuneSession {
public:
  TuneSession(const TuneSessionOptions &Options, std::ostream &Out) : Options(Options), Out(Out) {}

  std::string exe(const TuneConfig &C) const { return Options.Dir + "/bin/" + configName(C); }
  std::string source(const TuneConfig &C) const {
    return joinPath(Options.PlanDir, Options.Plan.Sources.at(C.Variant));
  }
  std::string buildLog(const TuneConfig &C) const {
    return Options.Dir + "/logs/" + configName(C) + ".build.log";
  }

  PendingCommand buildCommand(const TuneConfig &C) const {
    std::map<std::string, std::string> Values{{"src", shellQuote(source(C))},
                                              {"exe", shellQuote(exe(C))},
                                              {"defines", configDefines(C)},
                                              {"name", configName(C)}};
    return {expandPlaceholders(Options.BuildCommand, Values), buildLog(C)};
  }

  // Builds what is not built yet, Jobs at a time.
  void build(const std::vector<TuneConfig> &Configs) {
    std::vector<TuneConfig> Pending;
    std::vector<PendingCommand> Commands;
    for (const TuneConfig &C : Configs) {
      if (Built.count(configName(C)))
        continue;
      if (Options.NoBuild) {
        Built[configName(C)] = fileExists(exe(C)) ? "ok" : "build-failed";
        continue;
      }
      Pending.push_back(C);
      Commands.push_back(buildCommand(C));
    }
    if (Commands.empty())
      return;
    auto Start = std::chrono::steady_clock::now();
    std::vector<CommandStatus> Status = runCommands(Commands, Options.Jobs, Options.TimeoutSeconds);
    unsigned Failed = 0;
    for (size_t I = 0; I < Pending.size(); ++I) {
      bool Ok = Status[I].ExitCode == 0;
      Built[configName(Pending[I])] = Ok ? "ok" : "build-failed";
      if (!Ok) {
        ++Failed;
        Out << "build failed: " << configName(Pending[I]) << " (" << Commands[I].LogPath << ")\n";
      }
    }
    Out << "# built " << Pending.size() - Failed << " of " << Pending.size()
        << " configuration(s) in "
        << std::lround(
               std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count())
        << " s\n";
  }

  std::optional<double> measure(const TuneConfig &C, const std::string &Search) {
    build({C});
    RunRecord R;
    R.Search = Search;
    R.Config = C;
    auto Start = std::chrono::steady_clock::now();
    if (Built[configName(C)] != "ok") {
      R.Status = "build-failed";
      R.Log = buildLog(C);
      R.Note = Options.NoBuild ? "no executable (--no-build)" : lastLines(readFile(R.Log), 2);
    } else {
      R.Log = Options.Dir + "/logs/" + configName(C) + "." + Search + ".log";
      std::string Command = expandPlaceholders(
          Options.RunCommand,
          {{"exe", shellQuote(exe(C))}, {"name", configName(C)}, {"defines", configDefines(C)}});
      CommandStatus S = runCommands({{Command, R.Log}}, 1, Options.TimeoutSeconds).front();
      std::string Output = readFile(R.Log);
      if (S.TimedOut)
        R.Status = "timeout";
      else if (S.ExitCode != 0)
        R.Status = "run-failed";
      else if (!(R.Ms = extractTime(Output, Options.TimeRegex)))
        R.Status = "no-time";
      else
        R.Status = "ok";
      if (R.Status != "ok") {
        R.Ms.reset();
        R.Note = lastLines(Output, 2);
      }
    }
    R.WallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    Out << std::left << std::setw(11) << Search << std::setw(24) << configName(C) << std::setw(13)
        << R.Status << std::right << std::setw(12)
        << (R.Ms ? formatMs(*R.Ms) + " ms" : std::string("-")) << (R.Note.empty() ? "" : "  ")
        << R.Note << "\n"
        << std::flush;
    Records.push_back(R);
    writeCsv();
    return R.Ms;
  }

  // Rewritten after every run, so that what ran survives an interrupted tune.
  void writeCsv() const {
    std::ofstream Csv(Options.Dir + "/tune.csv");
    Csv << "search,run,config," << parameterColumns() << ",status,time_ms,wall_s,log,note\n";
    unsigned Run = 0;
    for (const RunRecord &R : Records)
      Csv << R.Search << "," << ++Run << "," << configName(R.Config) << ","
          << parameterValues(R.Config) << "," << R.Status << "," << (R.Ms ? formatMs(*R.Ms) : "")
          << "," << std::fixed << std::setprecision(1) << R.WallSeconds << std::defaultfloat << ","
          << R.Log << "," << R.Note << "\n";
  }

  const std::vector<RunRecord> &records() const { return Records; }

private:
  const TuneSessionOptions &Options;
  std::ostream &Out;
  std::map<std::string, std::string> Built; // config name -> ok | build-failed
  std::vector<RunRecord> Records;
};

std::string reproduceFlags(const TunePlan &Plan, const TuneConfig &C) {
  // A file of launchopt tune --auto has no flags of its own: --auto with
  // the variant fixed, which only the tune writes.
  if (Plan.Start && Plan.Sources.count(C.Variant))
    return "the plan's file " + Plan.Sources.at(C.Variant) + " (launchopt tune --auto); nvcc " +
           configDefines(C) + " <that file> ...";
  std::string Passes;
  for (const std::string &Flag : tunedPassFlags())
    Passes += "--" + Flag + (Flag == tuneVariant().PassFlag ? "=" + C.Variant : "") + " ";
  return "launchopt " + Passes +
         (Plan.Input.empty() ? std::string("<input.cu>") : shellQuote(Plan.Input)) +
         " -o <output.cu>; nvcc " + configDefines(C) + " <output.cu> ...";
}

// "thresholds 32,128; cfactors 4; granularities block,grid; aggregation
// thresholds 2,8 at warp and block": what a tune sweeps.
std::string describeSpace(const TuneSpace &Space) {
  std::string Text;
  for (int Slot : parameterOrder()) {
    if (Slot == VariantSlot) {
      Text += (Text.empty() ? "" : "; ") + tuneVariant().List + " " + formatList(Space.Variants);
      continue;
    }
    const TuneMacroParameter &Macro = tuneMacros()[Slot];
    if (!Macro.ShownAtDefault && Space.Values[Slot] == std::vector<unsigned>{Macro.Start})
      continue;
    Text += (Text.empty() ? "" : "; ") + Macro.Label + " " + formatList(Space.Values[Slot]);
    for (size_t V = 0; V < Macro.OnlyForVariants.size(); ++V)
      Text += (V == 0                                  ? " at "
               : V + 1 == Macro.OnlyForVariants.size() ? " and "
                                                       : ", ") +
              Macro.OnlyForVariants[V];
  }
  return Text;
}

// Runs the Options.Confirm fastest configurations measured so far again, in
// turn, and prints each one's runs and median.
ConfirmResult confirmFastest(TuneSession &Session, const TuneSessionOptions &Options,
                             std::ostream &Out) {
  std::vector<std::pair<TuneConfig, double>> Times;
  for (const RunRecord &R : Session.records())
    if (R.Ms)
      Times.push_back({R.Config, *R.Ms});
  std::vector<TuneConfig> Fastest = fastestConfigs(Times, Options.Confirm);
  Out << "\n# confirming the " << Fastest.size() << " fastest, " << Options.ConfirmRounds
      << " run(s) each in turn\n";
  MeasureFn Confirm = [&](const TuneConfig &C) { return Session.measure(C, "confirm"); };
  ConfirmResult Confirmed = confirmBest(Fastest, Options.ConfirmRounds, Confirm);
  Out << "\n"
      << std::left << std::setw(24) << "confirmed" << std::setw(30) << "runs (ms, in turn)"
      << std::right << std::setw(12) << "median" << "\n";
  for (const ConfirmedTimes &T : Confirmed.Candidates) {
    std::string List;
    for (double Ms : T.Ms)
      List += (List.empty() ? "" : " ") + formatMs(Ms);
    if (T.Failed)
      List += (List.empty() ? "" : " ") + std::string("failed");
    Out << std::left << std::setw(24) << configName(T.Config) << std::setw(30) << List << std::right
        << std::setw(12) << (T.Failed ? std::string("-") : formatMs(T.median())) << "\n";
  }
  return Confirmed;
}

} // namespace

std::optional<double> extractTime(const std::string &Output, const std::string &Regex) {
  std::regex Pattern(Regex);
  std::stringstream Lines(Output);
  std::string Line;
  std::optional<double> Time;
  while (std::getline(Lines, Line)) {
    std::smatch Match;
    if (!std::regex_search(Line, Match, Pattern))
      continue;
    std::string Number = Match.str(0);
    for (size_t I = 1; I < Match.size(); ++I)
      if (Match[I].matched) {
        Number = Match.str(I);
        break;
      }
    char *End = nullptr;
    double Value = std::strtod(Number.c_str(), &End);
    // The last matching line decides, even when it holds no number.
    Time.reset();
    if (!Number.empty() && End && *End == '\0' && std::isfinite(Value))
      Time = Value;
  }
  return Time;
}

CheckResult checkTuneCommands(const TuneSessionOptions &Options) {
  if (Options.BuildOnly && Options.NoBuild)
    return TuneError{"--build-only and --no-build exclude each other"};
  if (!Options.NoBuild) {
    if (Options.BuildCommand.empty())
      return TuneError{"--build '<command>' is required"};
    for (const char *Placeholder : {"{src}", "{exe}", "{defines}"})
      if (Options.BuildCommand.find(Placeholder) == std::string::npos)
        return TuneError{
            std::string("--build must contain ") + Placeholder +
            " ({src} the transformed file, {exe} the executable, {defines} the -D flags)"};
  }
  if (!Options.BuildOnly) {
    if (Options.RunCommand.empty())
      return TuneError{"--run '<command>' is required"};
    if (Options.RunCommand.find("{exe}") == std::string::npos)
      return TuneError{"--run must contain {exe}"};
  }
  if (Options.GuidedRuns == 0)
    return TuneError{"--guided-runs must be at least 1"};
  if (Options.Confirm > 0 && Options.ConfirmRounds == 0)
    return TuneError{"--confirm-rounds must be at least 1"};
  try {
    std::regex Check(Options.TimeRegex);
  } catch (const std::regex_error &E) {
    return TuneError{"--time-regex is not a valid regular expression: " + std::string(E.what())};
  }
  return checked();
}

int runTuneSession(const TuneSessionOptions &Options, std::ostream &Out, std::ostream &Err) {
  for (const std::string &V : Options.Space.Variants)
    if (!Options.Plan.Sources.count(V)) {
      Err << "launchopt tune: error: the plan has no transformed file for " << tuneVariant().Noun
          << " '" << V << "'\n";
      return 1;
    } else if (!fileExists(joinPath(Options.PlanDir, Options.Plan.Sources.at(V)))) {
      Err << "launchopt tune: error: cannot read '"
          << joinPath(Options.PlanDir, Options.Plan.Sources.at(V)) << "'\n";
      return 1;
    }
  if (!makeDirs(Options.Dir + "/bin") || !makeDirs(Options.Dir + "/logs")) {
    Err << "launchopt tune: error: cannot create '" << Options.Dir << "'\n";
    return 1;
  }
  const TuneSpace &Space = Options.Space;
  std::vector<TuneConfig> All = Space.configs();
  Out << "# launchopt tune: " << All.size() << " configurations (" << describeSpace(Space) << ")\n";
  TuneSession Session(Options, Out);
  if (Options.BuildOnly) {
    Session.build(All);
    return 0;
  }
  MeasureFn Exhaustive = [&](const TuneConfig &C) { return Session.measure(C, "exhaustive"); };
  MeasureFn Guided = [&](const TuneConfig &C) { return Session.measure(C, "guided"); };
  std::optional<TuneSearchResult> ExhaustiveResult;
  // A plan of launchopt tune --auto (it has a start) is refined by the
  // guided search alone, whichever half runs it.
  if (Options.Exhaustive && !Options.Plan.Start) {
    Session.build(All);
    ExhaustiveResult = exhaustiveSearch(Space, Exhaustive);
  }
  TuneConfig Start = Options.Plan.Start ? *Options.Plan.Start : defaultTuneConfig();
  TuneSearchResult GuidedResult = guidedSearch(Space, Start, Options.GuidedRuns, Guided);

  auto TimeOf = [&](const std::string &Search, const TuneConfig &C) -> std::optional<double> {
    for (const RunRecord &R : Session.records())
      if (R.Search == Search && R.Config == C)
        return R.Ms;
    return std::nullopt;
  };
  auto Row = [&](const std::string &Search, unsigned Runs, const std::optional<TuneConfig> &Best,
                 double Ms) {
    Out << std::left << std::setw(11) << Search << std::right << std::setw(5) << Runs << "  "
        << std::left << std::setw(24) << (Best ? configName(*Best) : "(every run failed)")
        << std::right << std::setw(12) << (Best ? formatMs(Ms) : std::string("-")) << "\n";
  };
  Out << "\nsearch      runs  best                         time_ms\n";
  Row("guided", GuidedResult.Runs, GuidedResult.Best, GuidedResult.BestMs);
  if (ExhaustiveResult)
    Row("exhaustive", ExhaustiveResult->Runs, ExhaustiveResult->Best, ExhaustiveResult->BestMs);
  if (Space.contains(Start))
    if (std::optional<double> DefaultMs = TimeOf("guided", Start))
      Out << (Options.Plan.Start ? "start (" : "default (") << configName(Start)
          << "): " << formatMs(*DefaultMs) << " ms\n";
  if (ExhaustiveResult && ExhaustiveResult->Best && GuidedResult.Best) {
    Out << "guided best / exhaustive best: " << std::fixed << std::setprecision(3)
        << GuidedResult.BestMs / ExhaustiveResult->BestMs;
    if (std::optional<double> Swept = TimeOf("exhaustive", *GuidedResult.Best))
      Out << " (the guided best in the sweep: " << formatMs(*Swept) << " ms, "
          << *Swept / ExhaustiveResult->BestMs << "x the exhaustive best)";
    Out << std::defaultfloat << "\n";
  }
  const TuneSearchResult &Final =
      ExhaustiveResult && ExhaustiveResult->Best ? *ExhaustiveResult : GuidedResult;
  if (!Final.Best) {
    Out << "runs: " << Options.Dir << "/tune.csv\n";
    Err << "launchopt tune: error: every configuration failed (logs in " << Options.Dir
        << "/logs)\n";
    return 1;
  }
  std::optional<TuneConfig> Best = Final.Best;
  double BestMs = Final.BestMs;
  std::string How = &Final == &GuidedResult ? "guided" : "exhaustive";
  if (Options.Confirm > 0) {
    ConfirmResult Confirmed = confirmFastest(Session, Options, Out);
    if (Confirmed.Best) {
      Best = Confirmed.Best;
      BestMs = Confirmed.BestMs;
      How = "median of " + std::to_string(Options.ConfirmRounds) + " confirmation runs";
    }
  }
  Out << "runs: " << Options.Dir << "/tune.csv\n";
  Out << "best: " << configName(*Best) << " (" << formatMs(BestMs) << " ms, " << How
      << "): " << reproduceFlags(Options.Plan, *Best) << "\n";
  return 0;
}

} // namespace launchopt

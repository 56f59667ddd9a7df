#include "TuneCommandLine.h"

#include "TuneParameters.h"
#include "Transforms/ChoiceGrammar.h"
#include <algorithm>
#include <functional>
#include <optional>

namespace launchopt {

namespace {

// One option: its name, value (empty for a flag), help, and which tools
// take it.
struct OptionSpec {
  std::string Name;
  std::string Value;
  std::string Help;
  bool OnlyLaunchopt = false;
  std::function<CheckResult(TuneCommandLine &, const std::string &)> Apply;
};

// A count option's value: digits only, at least Minimum.
CheckResult readCount(const std::string &Name, const std::string &Text, unsigned &Value,
                      unsigned Minimum = 0) {
  if (Text.empty() || Text.size() > 9 ||
      !std::all_of(Text.begin(), Text.end(), [](char C) { return C >= '0' && C <= '9'; }))
    return TuneError{"--" + Name + " takes a number, got '" + Text + "'"};
  Value = static_cast<unsigned>(std::stoul(Text));
  if (Value < Minimum)
    return TuneError{"--" + Name + " must be at least " + std::to_string(Minimum)};
  return checked();
}

std::vector<OptionSpec> optionSpecs() {
  using Line = TuneCommandLine;
  auto Text = [](std::string Line::*Field) {
    return [Field](Line &L, const std::string &V) {
      L.*Field = V;
      return checked();
    };
  };
  auto Session = [](std::string TuneSessionOptions::*Field) {
    return [Field](Line &L, const std::string &V) {
      L.Session.*Field = V;
      return checked();
    };
  };
  auto Count = [](const std::string &Name, unsigned TuneSessionOptions::*Field, unsigned Minimum) {
    return [Name, Field, Minimum](Line &L, const std::string &V) {
      return readCount(Name, V, L.Session.*Field, Minimum);
    };
  };
  auto Flag = [](bool Line::*Field) {
    return [Field](Line &L, const std::string &) {
      L.*Field = true;
      return checked();
    };
  };
  auto SessionFlag = [](bool TuneSessionOptions::*Field, bool Value) {
    return [Field, Value](Line &L, const std::string &) {
      L.Session.*Field = Value;
      return checked();
    };
  };
  std::vector<OptionSpec> Specs = {
      {"from", "dir",
       "Build, run and search from the files a --transform-only left in <dir> (no input file, "
       "no parsing)",
       false, Text(&Line::From)},
      {"build", "command",
       "Shell command that builds one configuration: {src} the transformed file, {exe} the "
       "executable to write, {defines} the -D flags, {name} the configuration's name",
       false, Session(&TuneSessionOptions::BuildCommand)},
      {"run", "command",
       "Shell command that runs {exe} (and verifies it): a nonzero exit marks the configuration "
       "failed",
       false, Session(&TuneSessionOptions::RunCommand)},
      {"time-regex", "regex",
       "The run's time in ms: the first matching group of the last output line this matches "
       "(default: the median of a bench harness 'RESULT,...,OK,...' line, or "
       "'time_ms=<number>')",
       false, Session(&TuneSessionOptions::TimeRegex)}};
  const TuneVariantParameter &Variant = tuneVariant();
  auto List = [](const std::string &Name) {
    return [Name](Line &L, const std::string &V) {
      L.Lists[Name] = V;
      return checked();
    };
  };
  for (const TuneMacroParameter &M : tuneMacros())
    Specs.push_back(
        {M.List, "list",
         M.Macro + " values (default " + M.Values + ")" +
             (M.OnlyForVariants.empty() ? std::string()
                                        : ", tried at " + formatList(M.OnlyForVariants) + " only"),
         false, List(M.List)});
  Specs.push_back({Variant.List, "list",
                   "--" + Variant.PassFlag + " values, one transformed file each (" +
                       describeChoices(Variant.Grammar) + "; default " + Variant.Values + ")",
                   false, List(Variant.List)});
  std::vector<OptionSpec> Rest = {
      {"guided-runs", "N",
       "Runs of the guided search (coordinate descent from the defaults; "
       "default 10)",
       false, Count("guided-runs", &TuneSessionOptions::GuidedRuns, 1)},
      {"no-exhaustive", "", "Skip the exhaustive sweep", false,
       SessionFlag(&TuneSessionOptions::Exhaustive, false)},
      {"confirm", "N",
       "Then run the N fastest configurations again, in turn, and pick the lowest median "
       "(default 0: don't)",
       false, Count("confirm", &TuneSessionOptions::Confirm, 0)},
      {"confirm-rounds", "N", "Runs of each configuration in the confirmation (default 3)", false,
       Count("confirm-rounds", &TuneSessionOptions::ConfirmRounds, 1)},
      {"out", "dir",
       "Folder for the transformed files, plan.txt, bin/, logs/ and tune.csv (default: "
       "launchopt-tune, or the --from folder)",
       false, Text(&Line::OutDir)},
      {"transform-only", "",
       "Write the transformed files and plan.txt, then stop (the rest runs later with --from, "
       "or with launchopt-tune)",
       true, Flag(&Line::TransformOnly)},
      {"auto", "",
       "Refine launchopt --auto's plan: one --auto file per granularity, then only the guided "
       "search (at most --guided-runs, default 10), started at the cost model's threshold, "
       "factor and granularity",
       true, Flag(&Line::Auto)},
      {"jobs", "N", "Parallel builds (default 1)", false,
       Count("jobs", &TuneSessionOptions::Jobs, 1)},
      {"timeout", "seconds", "Seconds per build or run (default 0: none)", false,
       [](Line &L, const std::string &V) {
         unsigned Seconds = 0;
         CheckResult Read = readCount("timeout", V, Seconds);
         L.Session.TimeoutSeconds = Seconds;
         return Read;
       }},
      {"build-only", "", "Build every configuration and stop", false,
       SessionFlag(&TuneSessionOptions::BuildOnly, true)},
      {"no-build", "", "Run the executables an earlier --build-only left", false,
       SessionFlag(&TuneSessionOptions::NoBuild, true)},
      {"cuda-path", "dir", "CUDA toolkit whose headers are used for parsing", true,
       Text(&Line::CudaPath)}};
  Specs.insert(Specs.end(), Rest.begin(), Rest.end());
  return Specs;
}

} // namespace

OrError<TuneCommandLine> parseTuneCommandLine(const std::vector<std::string> &Args, TuneTool Tool) {
  TuneCommandLine Line;
  std::vector<OptionSpec> Specs = optionSpecs();
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    if (Arg == "--help" || Arg == "-help" || Arg == "-h") {
      Line.Help = true;
      continue;
    }
    if (Arg.size() < 2 || Arg[0] != '-') {
      if (Tool == TuneTool::RunHalf || !Line.Input.empty())
        return TuneError{"unexpected argument '" + Arg + "' (see --help)"};
      Line.Input = Arg;
      continue;
    }
    // --name=value, --name value, and the single dash a clang tool accepts.
    std::string Name = Arg.substr(Arg[1] == '-' ? 2 : 1);
    std::optional<std::string> Value;
    if (size_t Eq = Name.find('='); Eq != std::string::npos) {
      Value = Name.substr(Eq + 1);
      Name = Name.substr(0, Eq);
    }
    auto Spec = std::find_if(Specs.begin(), Specs.end(), [&](const OptionSpec &S) {
      return S.Name == Name && (Tool == TuneTool::Launchopt || !S.OnlyLaunchopt);
    });
    if (Spec == Specs.end())
      return TuneError{"unknown argument '" + Arg + "' (see --help)"};
    if (Spec->Value.empty() && Value)
      return TuneError{"--" + Name + " takes no value"};
    if (!Spec->Value.empty() && !Value) {
      if (I + 1 >= Args.size())
        return TuneError{"--" + Name + " needs a value"};
      Value = Args[++I];
    }
    CheckResult Applied = Spec->Apply(Line, Value.value_or(""));
    if (!Applied)
      return TuneError{Applied.error()};
  }
  if (Line.Help)
    return Line;
  if (Tool == TuneTool::RunHalf && Line.From.empty())
    return TuneError{"--from DIR is required (see --help)"};
  if (Tool == TuneTool::Launchopt && Line.Input.empty() == Line.From.empty())
    return TuneError{"give exactly one of <file.cu> and --from <dir> (see --help)"};
  if (Line.TransformOnly && !Line.From.empty())
    return TuneError{"--transform-only needs <file.cu>, not --from"};
  if (!Line.TransformOnly)
    if (CheckResult Commands = checkTuneCommands(Line.Session); !Commands)
      return TuneError{Commands.error()};
  return Line;
}

OrError<TuneSpace> resolveTuneSpace(const TuneCommandLine &Line, const TunePlan *Plan) {
  std::map<std::string, std::string> Lists =
      Plan ? formatTuneSpace(Plan->Space) : std::map<std::string, std::string>();
  for (const auto &[Name, Text] : Line.Lists)
    Lists[Name] = Text;
  return parseTuneSpace(Lists);
}

std::string tuneHelp(TuneTool Tool) {
  std::string Flags, Passes;
  for (const std::string &Flag : tunedPassFlags()) {
    Flags += (Flags.empty() ? "--" : " --") + Flag;
    Passes += (Passes.empty() ? "--" : " --") + Flag +
              (Flag == tuneVariant().PassFlag ? "=<" + tuneVariant().Noun + ">" : "");
  }
  std::string Text;
  if (Tool == TuneTool::Launchopt)
    Text = "launchopt tune: finds the best configuration of the tunable passes (" + Flags +
           ")\nfor one program by building and running it.\n\n"
           "  launchopt tune <file.cu> --build '<command>' --run '<command>' [options] [-- "
           "<flags>]\n"
           "  launchopt tune <file.cu> --transform-only --out DIR [-- <flags>]\n"
           "  launchopt tune --from DIR --build '<command>' --run '<command>' [options]\n\n";
  else
    Text = "launchopt-tune: the build-run-search half of `launchopt tune`, from the files\n"
           "`launchopt tune --transform-only` wrote; it needs neither Clang nor LLVM.\n\n"
           "  launchopt-tune --from DIR --build '<command>' --run '<command>' [options]\n\n";
  Text += "The input is transformed once per " + tuneVariant().Noun + " (" + Passes +
          ")\ninto DIR; each configuration is built with its transformed file and the -D flags\n"
          "of its macros and run; a failed build, run or verification (nonzero exit) is never\n"
          "chosen. An exhaustive sweep (every configuration once) and a guided search\n"
          "(coordinate descent from the defaults, or from --auto's choice, its own runs, at\n"
          "most --guided-runs) are\n"
          "printed side by side; every run is in DIR/tune.csv; the last line names the best\n"
          "configuration and the flags that reproduce it. With --from, a list given on the\n"
          "command line narrows the plan's.\n\nOptions:\n";
  std::vector<OptionSpec> Specs = optionSpecs();
  std::sort(Specs.begin(), Specs.end(),
            [](const OptionSpec &A, const OptionSpec &B) { return A.Name < B.Name; });
  for (const OptionSpec &S : Specs) {
    if (Tool == TuneTool::RunHalf && S.OnlyLaunchopt)
      continue;
    std::string Left = "  --" + S.Name + (S.Value.empty() ? "" : "=<" + S.Value + ">");
    Text += Left + std::string(Left.size() < 25 ? 25 - Left.size() : 1, ' ');
    // Wrap the help at 92 columns, under its own column.
    size_t Column = 25;
    std::string Word;
    for (size_t I = 0; I <= S.Help.size(); ++I) {
      if (I < S.Help.size() && S.Help[I] != ' ') {
        Word += S.Help[I];
        continue;
      }
      if (Column > 25 && Column + 1 + Word.size() > 92) {
        Text += "\n" + std::string(25, ' ');
        Column = 25;
      }
      Text += (Column > 25 ? " " : "") + Word;
      Column += (Column > 25 ? 1 : 0) + Word.size();
      Word.clear();
    }
    Text += "\n";
  }
  Text += "\nExit status: 0 a best configuration was found, 1 input error or every\n"
          "configuration failed, 2 bad command line.\n";
  return Text;
}

} // namespace launchopt

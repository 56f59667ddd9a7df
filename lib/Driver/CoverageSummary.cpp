#include "CoverageSummary.h"

#include "CommandSupport.h"
#include "DroppedLaunchRecovery.h"
#include "TransformPipeline.h"
#include "Support/MakeError.h"
#include "Transforms/LaunchPass.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <set>

namespace launchopt {

namespace {

// "child calls 'f', which ..." -> "child calls '<name>', which ...", so that
// one obstacle met in many places counts once.
std::string reasonKind(const std::string &Message) {
  std::string Kind;
  bool InQuote = false;
  for (size_t I = 0; I < Message.size(); ++I) {
    char C = Message[I];
    // A quote opens after a space or at the start; an apostrophe ("launch's")
    // follows a letter.
    bool Opens = C == '\'' && !InQuote && (I == 0 || Message[I - 1] == ' ');
    if (Opens || (C == '\'' && InQuote)) {
      Kind += InQuote ? "<name>'" : "'";
      InQuote = !InQuote;
    } else if (!InQuote) {
      Kind += C;
    }
  }
  if (InQuote)
    return Message;
  // "at line 46" -> "at line <n>": the same obstacle at other lines.
  static const llvm::Regex Line("line [0-9]+");
  while (Line.match(Kind))
    Kind = Line.sub("line <n>", Kind);
  return Kind;
}

} // namespace

llvm::Expected<Coverage> measureCoverage(const clang::tooling::CompilationDatabase &Compilations,
                                         const std::vector<std::string> &Files,
                                         const ParseEnvironment &Env) {
  Coverage C;
  for (const RegisteredPass &Pass : registeredPasses())
    C.Passes.push_back({Pass.Flag, Pass.Description.SummaryValue, 0, {}});
  // The files are one program, as for a transform: each is parsed before any
  // pass runs, so that a launch of another file's child counts as the pass
  // that takes it (linkProgramLaunches) would transform it.
  std::vector<ProgramSource> Program;
  std::vector<RecoveredParse> Parsed;
  std::vector<LaunchAnalysis> Analysed;
  for (const std::string &File : Files) {
    llvm::Expected<std::string> Text = readInputFile(File);
    if (!Text) {
      C.NotRead.push_back({File, llvm::toString(Text.takeError())});
      continue;
    }
    RecoveredParse Recovered = parseRecoveringDroppedLaunches(Compilations, File, Env, *Text);
    if (!Recovered.Parsed) {
      C.NotRead.push_back({File, "does not parse (clang's errors above)"});
      continue;
    }
    Analysed.push_back(analyzeLaunches(Recovered.Parsed->Unit->getASTContext()));
    Program.push_back({File, std::move(*Text)});
    Parsed.push_back(std::move(Recovered));
  }
  C.Files = Program.size();
  std::vector<std::vector<unsigned>> DeviceIds(Program.size());
  for (size_t F = 0; F < Program.size(); ++F) {
    for (const LaunchSite &Site : Analysed[F].Sites)
      if (Site.DeviceSide)
        DeviceIds[F].push_back(Site.Id);
      else
        ++C.HostSites;
    C.DeviceSites += DeviceIds[F].size() + Analysed[F].Unresolved.size();
    for (const IncludedFileLaunch &L : Analysed[F].InIncludedFiles)
      (L.DeviceSide ? C.DeviceSites : C.HostSites) += 1;
  }
  std::vector<std::set<unsigned>> ByAny(Program.size());
  for (size_t P = 0; P < registeredPasses().size(); ++P) {
    const RegisteredPass &Pass = registeredPasses()[P];
    PassArguments Arguments = Pass.defaultArguments();
    Arguments.Value = Pass.Description.SummaryValue;
    llvm::Expected<std::unique_ptr<LaunchPass>> Made = Pass.Description.Create(Arguments);
    if (!Made)
      return makeError("internal error: --" + Pass.Flag + "=" + Arguments.Value + ": " +
                       llvm::toString(Made.takeError()));
    // Linking marks the analyses for this pass (what it exports, which
    // launches it takes), so each pass links fresh copies.
    std::vector<LaunchAnalysis> Launches = Analysed;
    if (Program.size() > 1)
      linkProgramLaunches(**Made, Program, Parsed, Launches);
    PassCoverage &Counts = C.Passes[P];
    for (size_t F = 0; F < Program.size(); ++F) {
      PassResult Result = (*Made)->run(Parsed[F].Parsed->Unit->getASTContext(), Launches[F]);
      for (unsigned Id : DeviceIds[F]) {
        std::string Reason;
        bool Applied = false;
        for (const LaunchRemark &R : Result.Remarks)
          if (R.LaunchId == Id && R.Subject.empty() && !R.InGeneratedCode) {
            Applied |= R.Applied;
            if (!R.Applied && Reason.empty())
              Reason = R.Message;
          }
        if (Applied) {
          ++Counts.Transformable;
          ByAny[F].insert(Id);
        } else {
          ++Counts.Refusals[Reason.empty() ? "no remark" : reasonKind(Reason)];
        }
      }
      for (const UnresolvedLaunch &U : Launches[F].Unresolved)
        ++Counts.Refusals[unresolvedLaunchReason(U)];
      for (const IncludedFileLaunch &L : Launches[F].InIncludedFiles)
        if (L.DeviceSide)
          ++Counts.Refusals["written in an included file, which launchopt does not edit"];
    }
  }
  for (const std::set<unsigned> &Sites : ByAny)
    C.ByAnyPass += Sites.size();
  return C;
}

namespace {

// Refusals, most frequent first (then by text, for a stable listing).
std::vector<std::pair<std::string, unsigned>> byCount(const std::map<std::string, unsigned> &M) {
  std::vector<std::pair<std::string, unsigned>> Sorted(M.begin(), M.end());
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const auto &A, const auto &B) { return A.second > B.second; });
  return Sorted;
}

std::string passName(const PassCoverage &P) {
  return "--" + P.Pass + (P.Value.empty() ? "" : "=" + P.Value);
}

} // namespace

void printCoverageText(llvm::raw_ostream &OS, const Coverage &C) {
  OS << "device-side launch sites: " << C.DeviceSites << " in " << C.Files << " file(s) ("
     << C.HostSites << " host-side not counted)\n";
  for (const PassCoverage &P : C.Passes)
    OS << "  " << passName(P) << ": " << P.Transformable << " of " << C.DeviceSites
       << " transformable\n";
  OS << "  any pass: " << C.ByAnyPass << " of " << C.DeviceSites << "\n";
  for (const auto &[File, Why] : C.NotRead)
    OS << "not counted: " << File << ": " << Why << "\n";
  for (const PassCoverage &P : C.Passes) {
    if (P.Refusals.empty())
      continue;
    OS << "refusals of " << passName(P) << ":\n";
    for (const auto &[Reason, Count] : byCount(P.Refusals))
      OS << "  " << Count << "  " << Reason << "\n";
  }
}

void printCoverageJson(llvm::raw_ostream &OS, const Coverage &C) {
  llvm::json::Array Passes;
  for (const PassCoverage &P : C.Passes) {
    llvm::json::Array Refusals;
    for (const auto &[Reason, Count] : byCount(P.Refusals))
      Refusals.push_back(llvm::json::Object{{"reason", Reason}, {"sites", Count}});
    Passes.push_back(llvm::json::Object{{"pass", P.Pass},
                                        {"value", P.Value},
                                        {"transformable", P.Transformable},
                                        {"refusals", std::move(Refusals)}});
  }
  llvm::json::Array NotRead;
  for (const auto &[File, Why] : C.NotRead)
    NotRead.push_back(llvm::json::Object{{"file", File}, {"reason", Why}});
  llvm::json::Object Summary{{"files", C.Files},
                             {"not_counted", std::move(NotRead)},
                             {"device_sites", C.DeviceSites},
                             {"host_sites", C.HostSites},
                             {"by_any_pass", C.ByAnyPass},
                             {"passes", std::move(Passes)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Summary))) << "\n";
}

} // namespace launchopt

#include "AutoPlanning.h"

#include "CrashStage.h"
#include "Plan/SitePlan.h"
#include "Support/MakeError.h"
#include <set>

namespace launchopt {

namespace {

// The pass a step names, made with its value and Shared.
llvm::Expected<std::unique_ptr<LaunchPass>>
makeStepPass(const std::string &Flag, const std::string &Value,
             const std::map<std::string, std::string> &Options, const SharedPassSettings &Shared) {
  const RegisteredPass *Pass = findPass(Flag);
  if (!Pass)
    return makeError("internal error: --auto names an unknown pass --" + Flag);
  PassArguments Arguments = Pass->defaultArguments();
  Arguments.Value = Value;
  Arguments.Shared = Shared;
  for (const auto &[Name, Set] : Options)
    Arguments.Options[Name] = Set;
  return Pass->Description.Create(Arguments);
}

} // namespace

llvm::Expected<AutoPipeline>
planAutoPipeline(const clang::tooling::CompilationDatabase &Compilations,
                 const std::vector<ProgramSource> &Sources, const ParseEnvironment &Env,
                 const SharedPassSettings &Shared, const LaunchCosts &Costs,
                 const std::map<std::string, std::string> &Fixed) {
  std::vector<RecoveredParse> Parsed;
  std::vector<LaunchAnalysis> Analysed, AtInput;
  for (const ProgramSource &Source : Sources) {
    CrashStage Stage("planning (--auto)", Source.Path);
    Parsed.push_back(parseRecoveringDroppedLaunches(Compilations, Source.Path, Env, Source.Text));
    if (!Parsed.back().Parsed)
      return makeError("'" + Source.Path + "' could not be parsed; nothing was written");
    Analysed.push_back(analyzeLaunches(Parsed.back().Parsed->Unit->getASTContext()));
    AtInput.push_back(Analysed.back());
    restoreInputPositions(Parsed.back(), Source.Text, AtInput.back());
  }
  std::set<std::string> HostLaunched;
  for (const LaunchAnalysis &A : Analysed)
    for (const LaunchSite &Site : A.Sites)
      if (!Site.DeviceSide)
        HostLaunched.insert(Site.ChildName);

  std::vector<SiteFacts> Facts;
  std::vector<std::vector<size_t>> FactOf(Sources.size());
  for (size_t F = 0; F < Sources.size(); ++F) {
    clang::ASTContext &Ctx = Parsed[F].Parsed->Unit->getASTContext();
    FactOf[F].assign(Analysed[F].Sites.size(), SIZE_MAX);
    for (size_t S = 0; S < Analysed[F].Sites.size(); ++S) {
      const LaunchSite &Site = Analysed[F].Sites[S];
      if (!Site.DeviceSide)
        continue;
      FactOf[F][S] = Facts.size();
      Facts.push_back(analyseSite(Ctx, Analysed[F], Site, HostLaunched.count(Site.ParentName)));
      Facts.back().File = F;
      Facts.back().Position = AtInput[F].Sites[S].Position;
    }
  }

  // Each pass step of the candidates, alone on the input.
  std::set<std::string> Probed;
  for (const Candidate &C : autoCandidates())
    for (const PassStep &Step : C.Steps) {
      if (!Probed.insert(Step.probeKey()).second)
        continue;
      llvm::Expected<std::unique_ptr<LaunchPass>> Pass =
          makeStepPass(Step.Flag, Step.Value, {}, Shared);
      if (!Pass)
        return Pass.takeError();
      std::vector<LaunchAnalysis> Launches = Analysed;
      if (Sources.size() > 1)
        linkProgramLaunches(**Pass, Sources, Parsed, Launches);
      for (size_t F = 0; F < Sources.size(); ++F) {
        CrashStage Stage("planning (--auto)", Sources[F].Path);
        PassResult Result = (*Pass)->run(Parsed[F].Parsed->Unit->getASTContext(), Launches[F]);
        for (const LaunchRemark &R : Result.Remarks) {
          if (!R.Subject.empty() || R.InGeneratedCode)
            continue;
          for (size_t S = 0; S < Launches[F].Sites.size(); ++S)
            if (Launches[F].Sites[S].Id == R.LaunchId && FactOf[F][S] != SIZE_MAX) {
              ProbeOutcome &Out = Facts[FactOf[F][S]].Probes[Step.probeKey()];
              if (R.Applied) {
                Out.Applied = true;
                Out.Parameters = R.Parameters;
              } else if (Out.Reason.empty()) {
                Out.Reason = R.Message;
                // What a refusal says besides why (a launch another site's
                // removal records, say) informs the plan too.
                Out.Parameters = R.Parameters;
              }
            }
        }
      }
    }

  ProgramPlan Plan = planProgram(Facts, Sources.size(), Costs, Fixed);
  AutoPipeline Out;
  Out.Decisions = std::move(Plan.Decisions);
  for (PlannedPass &P : Plan.Passes) {
    llvm::Expected<std::unique_ptr<LaunchPass>> Pass =
        makeStepPass(P.Flag, P.Value, P.Options, Shared);
    if (!Pass)
      return Pass.takeError();
    std::shared_ptr<const LaunchPass> Made = std::move(*Pass);
    Out.Pipeline.Left[Made.get()] = std::move(P.Left);
    Out.Pipeline.Passes.push_back(std::move(Made));
    Out.Planned.push_back({P.Flag, P.Value, P.Options, {}});
  }
  return std::move(Out);
}

} // namespace launchopt

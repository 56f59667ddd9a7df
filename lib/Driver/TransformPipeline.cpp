#include "TransformPipeline.h"

#include "CrashStage.h"
#include "DroppedLaunchRecovery.h"
#include "Analysis/ProgramKernels.h"
#include "Rewrite/RuntimeEmbedding.h"
#include "Support/MakeError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <map>
#include <tuple>

namespace launchopt {

namespace {

// Byte offset of a 1-based line and column in Text.
unsigned offsetOf(const std::string &Text, unsigned Line, unsigned Column) {
  size_t Offset = 0;
  for (unsigned L = 1; L < Line && Offset != std::string::npos; ++L) {
    Offset = Text.find('\n', Offset);
    if (Offset != std::string::npos)
      ++Offset;
  }
  if (Offset == std::string::npos)
    return static_cast<unsigned>(Text.size());
  return static_cast<unsigned>(std::min(Offset + (Column ? Column - 1 : 0), Text.size()));
}

// A remark's text names lines of the text its pass read ("the launch of 'k'
// at line 231", "line 70, line 75"): each is named again by MapLine, which
// gives the input's line and whether the text there is one an earlier pass
// wrote.
template <typename LineMapper>
std::string inputLineMentions(const std::string &Text, LineMapper MapLine) {
  std::string Out;
  size_t At = 0;
  while (true) {
    size_t Mention = Text.find("line ", At);
    bool WordStart =
        Mention != std::string::npos && (Mention == 0 || !llvm::isAlnum(Text[Mention - 1]));
    size_t Digits = Mention == std::string::npos ? Mention : Mention + 5, End = Digits;
    while (End != std::string::npos && End < Text.size() && llvm::isDigit(Text[End]))
      ++End;
    if (Mention == std::string::npos) {
      Out += Text.substr(At);
      return Out;
    }
    Out += Text.substr(At, Digits - At);
    At = Digits;
    if (!WordStart || End == Digits)
      continue;
    bool Generated = false;
    unsigned Line =
        MapLine(static_cast<unsigned>(std::stoul(Text.substr(Digits, End - Digits))), Generated);
    Out += std::to_string(Line) + (Generated ? " (code an earlier pass wrote there)" : "");
    At = End;
  }
}

std::pair<unsigned, unsigned> lineAndColumnOf(const std::string &Text, unsigned Offset) {
  unsigned Line = 1, LineStart = 0;
  for (unsigned I = 0; I < Offset && I < Text.size(); ++I)
    if (Text[I] == '\n') {
      ++Line;
      LineStart = I + 1;
    }
  return {Line, Offset - LineStart + 1};
}

// Outputs that use the record pool, the deferral runtime or the spawn
// controller share one of each: the first defines it, the others declare it
// (a file alone keeps its own, as before).
void shareProgramState(std::vector<PipelineOutput> &Out) {
  for (const ProgramState &State : programStates()) {
    if (std::count_if(Out.begin(), Out.end(), [&](const PipelineOutput &File) {
          return usesProgramState(File.Text, State);
        }) < 2)
      continue;
    bool Defined = false;
    for (PipelineOutput &File : Out)
      if (usesProgramState(File.Text, State)) {
        File.Text = markProgramState(File.Text, State, !Defined);
        Defined = true;
      }
  }
}

} // namespace

void linkProgramLaunches(const LaunchPass &Pass, const std::vector<ProgramSource> &Sources,
                         const std::vector<RecoveredParse> &Parsed,
                         std::vector<LaunchAnalysis> &Launches) {
  std::map<std::string, std::vector<std::pair<size_t, const clang::FunctionDecl *>>> Definitions;
  for (size_t I = 0; I < Sources.size(); ++I)
    for (const auto &[Key, Kernel] :
         programKernelDefinitions(Parsed[I].Parsed->Unit->getASTContext()))
      Definitions[Key].push_back({I, Kernel});
  std::map<const clang::FunctionDecl *, std::string> Refusals;
  for (size_t I = 0; I < Sources.size(); ++I)
    for (LaunchSite &Site : Launches[I].Sites) {
      const clang::FunctionDecl *Declared = launchedFunction(*Site.Call);
      if (Site.Child || !Site.DeviceSide || !Declared)
        continue;
      auto Defined = Definitions.find(programKernelKey(*Declared));
      if (Defined == Definitions.end())
        continue;
      if (Defined->second.size() > 1) {
        std::vector<std::string> Files;
        for (const auto &[File, Kernel] : Defined->second)
          Files.push_back("'" + Sources[File].Path + "'");
        Site.UnresolvedReason = "'" + Site.ChildName + "' is defined in several files of the " +
                                "program (" + llvm::join(Files, ", ") + ")";
        continue;
      }
      auto [File, Kernel] = Defined->second.front();
      LaunchAnalysis &Defining = Launches[File];
      Defining.LaunchedFromOtherFiles.insert(Kernel);
      auto Refusal = Refusals.find(Kernel);
      if (Refusal == Refusals.end()) {
        llvm::Error E = Pass.acceptChildOfOtherFiles(Parsed[File].Parsed->Unit->getASTContext(),
                                                     Defining, *Kernel);
        Refusal = Refusals.emplace(Kernel, E ? llvm::toString(std::move(E)) : "").first;
        if (Refusal->second.empty()) {
          Defining.ExportedChildren.insert(Kernel);
          if (!Defining.ChildFeatures.count(Kernel))
            Defining.ChildFeatures[Kernel] = computeKernelFeatures(*Kernel);
        }
      }
      Launches[I].ExternalChildren[Site.Id] = {Declared, Sources[File].Path, Refusal->second};
      Site.UnresolvedReason = "the definition of '" + Site.ChildName + "' is in '" +
                              Sources[File].Path + "'" +
                              (Refusal->second.empty() ? "" : ": " + Refusal->second);
    }
}

std::string unresolvedLaunchReason(const UnresolvedLaunch &U) {
  return U.Cause + "; left untouched (" + U.Workaround + ")";
}

std::string includedFileLaunchReason(const IncludedFileLaunch &L) {
  return "the launch is written in the included file '" + L.Position.File +
         "', which launchopt does not edit; left untouched (launchopt edits the files it is "
         "given: move '" +
         L.Parent + "' into one of them to have its launch transformed)";
}

llvm::Expected<PipelineOptions>
makePipeline(const std::vector<std::pair<const RegisteredPass *, PassArguments>> &Chosen) {
  PipelineOptions Pipeline;
  bool Aggregating = false; // a pass after the one being made aggregates
  for (const auto &[Named, Arguments] : Chosen)
    Aggregating |= Named->Id == "Aggregate";
  for (const RegisteredPass &Pass : registeredPasses())
    for (const auto &[Named, Given] : Chosen)
      if (Named == &Pass) {
        Aggregating &= Pass.Id != "Aggregate";
        PassArguments Arguments = Given;
        Arguments.Shared.AggregationFollows = Aggregating;
        llvm::Expected<std::unique_ptr<LaunchPass>> Made = Pass.Description.Create(Arguments);
        if (!Made)
          return Made.takeError();
        Pipeline.Passes.push_back(std::move(*Made));
      }
  return std::move(Pipeline);
}

llvm::Expected<PipelineOutput>
runTransformPipeline(const clang::tooling::CompilationDatabase &Compilations,
                     const std::string &Input, const std::string &InputText,
                     const ParseEnvironment &Env, const PipelineOptions &Options) {
  llvm::Expected<std::vector<PipelineOutput>> Out =
      runProgramPipeline(Compilations, {{Input, InputText}}, Env, Options);
  if (!Out)
    return Out.takeError();
  return std::move(Out->front());
}

llvm::Expected<std::vector<PipelineOutput>>
runProgramPipeline(const clang::tooling::CompilationDatabase &Compilations,
                   const std::vector<ProgramSource> &Sources, const ParseEnvironment &Env,
                   const PipelineOptions &Options) {
  std::vector<PipelineOutput> Out(Sources.size());
  for (size_t I = 0; I < Sources.size(); ++I)
    Out[I].Text = Sources[I].Text;
  // Per file, each pass's input to the previous one's, and within a pass:
  // the input, the recovery markers, the pass's edits, the markers removed.
  std::vector<std::vector<SourceEdits>> EarlierEdits(Sources.size());
  bool First = true;
  for (const std::shared_ptr<const LaunchPass> &Pass : Options.Passes) {
    // Every file is parsed before any is transformed: a pass that takes a
    // launch of another file's child writes into both.
    std::vector<RecoveredParse> Parsed;
    std::vector<LaunchAnalysis> Launches;
    for (size_t I = 0; I < Sources.size(); ++I) {
      CrashStage Stage("parsing and analysing", Sources[I].Path);
      Parsed.push_back(
          parseRecoveringDroppedLaunches(Compilations, Sources[I].Path, Env, Out[I].Text));
      if (!Parsed.back().Parsed)
        return makeError("'" + Sources[I].Path + "' could not be parsed; nothing was written");
      Launches.push_back(analyzeLaunches(Parsed.back().Parsed->Unit->getASTContext()));
    }
    if (Sources.size() > 1)
      linkProgramLaunches(*Pass, Sources, Parsed, Launches);
    for (size_t I = 0; I < Sources.size(); ++I) {
      CrashStage Stage("transforming", Sources[I].Path);
      RecoveredParse &Recovered = Parsed[I];
      clang::ASTContext &Ctx = Recovered.Parsed->Unit->getASTContext();
      std::vector<SourceEdits> &Earlier = EarlierEdits[I];
      // A position in the parsed text as a position in the input: through
      // this parse's recovery markers, then every earlier step backwards.
      auto InputPosition = [&](PresumedPosition &Position, bool &InGeneratedCode) {
        unsigned Offset = offsetOf(Recovered.ParsedText, Position.Line, Position.Column);
        bool InMarker = false;
        Offset = Recovered.Markers.originalOffset(Offset, &InMarker);
        for (auto It = Earlier.rbegin(); It != Earlier.rend(); ++It)
          Offset = It->originalOffset(Offset, &InGeneratedCode);
        std::tie(Position.Line, Position.Column) = lineAndColumnOf(Sources[I].Text, Offset);
      };
      auto Left = Options.Left.find(Pass.get());
      if (Left != Options.Left.end() && I < Left->second.size())
        for (LaunchSite &Site : Launches[I].Sites) {
          PresumedPosition At = Site.Position;
          bool InGeneratedCode = false;
          InputPosition(At, InGeneratedCode);
          auto Reason = Left->second[I].find({At.Line, At.Column});
          if (!InGeneratedCode && Reason != Left->second[I].end())
            Site.LeftByPlan = Reason->second;
        }
      PassResult Result = Pass->run(Ctx, Launches[I]);
      if (First)
        for (const UnresolvedLaunch &U : Launches[I].Unresolved) {
          LaunchRemark R;
          R.Position = U.Position;
          R.Pass = "transform";
          R.Message = unresolvedLaunchReason(U);
          Result.Remarks.push_back(R);
        }
      // Remarks of a later pass name places in the input file, not in the
      // previous pass's output nor in the text with the recovery markers.
      // A line its text names, at the line's first written character.
      auto InputLine = [&](unsigned Line, bool &InGeneratedCode) {
        unsigned Start = offsetOf(Recovered.ParsedText, Line, 1), Column = 1;
        while (Start + Column - 1 < Recovered.ParsedText.size() &&
               (Recovered.ParsedText[Start + Column - 1] == ' ' ||
                Recovered.ParsedText[Start + Column - 1] == '\t'))
          ++Column;
        PresumedPosition At;
        At.Line = Line;
        At.Column = Column;
        InputPosition(At, InGeneratedCode);
        return At.Line;
      };
      for (LaunchRemark &R : Result.Remarks) {
        InputPosition(R.Position, R.InGeneratedCode);
        if (Earlier.empty())
          continue;
        R.Message = inputLineMentions(R.Message, InputLine);
        for (auto &[Key, Value] : R.Parameters)
          Value = inputLineMentions(Value, InputLine);
      }
      // Named where they are written, in the header: no mapping to this file.
      if (First)
        for (const IncludedFileLaunch &L : Launches[I].InIncludedFiles) {
          LaunchRemark R;
          R.Position = L.Position;
          R.Pass = "transform";
          R.Parent = L.Parent;
          R.Child = L.Child;
          R.Message = includedFileLaunchReason(L);
          Result.Remarks.push_back(R);
        }
      Earlier.push_back(std::move(Recovered.Markers));
      llvm::Expected<std::string> Next = Result.Edits.apply(Recovered.ParsedText);
      if (!Next)
        return makeError("internal error: " + llvm::toString(Next.takeError()) +
                         "; nothing was written");
      SourceEdits MarkersRemoved;
      Out[I].Text = removeRecoveryMarkers(*Next, MarkersRemoved);
      Earlier.push_back(std::move(Result.Edits));
      Earlier.push_back(std::move(MarkersRemoved));
      Out[I].Remarks.insert(Out[I].Remarks.end(), Result.Remarks.begin(), Result.Remarks.end());
    }
    First = false;
  }

  shareProgramState(Out);
  if (Options.EmbedRuntime)
    for (PipelineOutput &File : Out) {
      llvm::Expected<std::string> Embedded = embedRuntime(File.Text);
      if (!Embedded)
        return makeError(llvm::toString(Embedded.takeError()) + "; nothing was written");
      File.Text = std::move(*Embedded);
    }
  return std::move(Out);
}

} // namespace launchopt

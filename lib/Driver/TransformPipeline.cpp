#include "TransformPipeline.h"

#include "CrashStage.h"
#include "TemplateLaunchRecovery.h"
#include "Rewrite/RuntimeEmbedding.h"
#include "Support/MakeError.h"
#include "llvm/Support/MemoryBuffer.h"
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

std::pair<unsigned, unsigned> lineAndColumnOf(const std::string &Text, unsigned Offset) {
  unsigned Line = 1, LineStart = 0;
  for (unsigned I = 0; I < Offset && I < Text.size(); ++I)
    if (Text[I] == '\n') {
      ++Line;
      LineStart = I + 1;
    }
  return {Line, Offset - LineStart + 1};
}

} // namespace

std::string unresolvedLaunchReason(const UnresolvedLaunch &U) {
  return U.Cause + "; left untouched (" + U.Workaround + ")";
}

llvm::Expected<PipelineOptions>
makePipeline(const std::vector<std::pair<const RegisteredPass *, PassArguments>> &Chosen) {
  PipelineOptions Pipeline;
  for (const RegisteredPass &Pass : registeredPasses())
    for (const auto &[Named, Arguments] : Chosen)
      if (Named == &Pass) {
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
  PipelineOutput Out;
  std::string &Text = Out.Text;
  Text = InputText;
  // Each pass's input to the previous one's, and within a pass: the input,
  // the recovery markers, the pass's edits, the markers removed.
  std::vector<SourceEdits> EarlierEdits;
  bool First = true;
  for (const std::shared_ptr<const LaunchPass> &Pass : Options.Passes) {
    CrashStage Stage("parsing, analysing and transforming", Input);
    RecoveredParse Recovered = parseRecoveringTemplateLaunches(Compilations, Input, Env, Text);
    if (!Recovered.Parsed)
      return makeError("'" + Input + "' could not be parsed; nothing was written");
    clang::ASTContext &Ctx = Recovered.Parsed->Unit->getASTContext();
    LaunchAnalysis Launches = analyzeLaunches(Ctx);
    PassResult Result = Pass->run(Ctx, Launches);
    if (First)
      for (const UnresolvedLaunch &U : Launches.Unresolved) {
        LaunchRemark R;
        R.Position = U.Position;
        R.Pass = "transform";
        R.Message = unresolvedLaunchReason(U);
        Result.Remarks.push_back(R);
      }
    First = false;
    // Remarks of a later pass name places in the input file, not in the
    // previous pass's output nor in the text with the recovery markers.
    EarlierEdits.push_back(std::move(Recovered.Markers));
    for (LaunchRemark &R : Result.Remarks) {
      unsigned Offset = offsetOf(Recovered.ParsedText, R.Position.Line, R.Position.Column);
      bool InMarker = false;
      Offset = EarlierEdits.back().originalOffset(Offset, &InMarker);
      for (auto It = std::next(EarlierEdits.rbegin()); It != EarlierEdits.rend(); ++It)
        Offset = It->originalOffset(Offset, &R.InGeneratedCode);
      std::tie(R.Position.Line, R.Position.Column) = lineAndColumnOf(InputText, Offset);
    }
    llvm::Expected<std::string> Next = Result.Edits.apply(Recovered.ParsedText);
    if (!Next)
      return makeError("internal error: " + llvm::toString(Next.takeError()) +
                       "; nothing was written");
    SourceEdits MarkersRemoved;
    Text = removeRecoveryMarkers(*Next, MarkersRemoved);
    EarlierEdits.push_back(std::move(Result.Edits));
    EarlierEdits.push_back(std::move(MarkersRemoved));
    Out.Remarks.insert(Out.Remarks.end(), Result.Remarks.begin(), Result.Remarks.end());
  }

  if (Options.EmbedRuntime) {
    llvm::Expected<std::string> Embedded = embedRuntime(Text);
    if (!Embedded)
      return makeError(llvm::toString(Embedded.takeError()) + "; nothing was written");
    Text = std::move(*Embedded);
  }
  return std::move(Out);
}

} // namespace launchopt

#include "TransformPipeline.h"

#include "Frontend/Frontend.h"
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
  std::vector<SourceEdits> EarlierEdits;
  for (const std::shared_ptr<const LaunchPass> &Pass : Options.Passes) {
    std::unique_ptr<ParsedFile> Parsed = parseCudaFile(Compilations, Input, Env, &Text);
    if (!Parsed)
      return makeError("'" + Input + "' could not be parsed; nothing was written");
    clang::ASTContext &Ctx = Parsed->Unit->getASTContext();
    LaunchAnalysis Launches = analyzeLaunches(Ctx);
    PassResult Result = Pass->run(Ctx, Launches);
    if (EarlierEdits.empty())
      for (const UnresolvedLaunch &U : Launches.Unresolved) {
        LaunchRemark R;
        R.Position = U.Position;
        R.Pass = "transform";
        R.Message = unresolvedLaunchReason(U);
        Result.Remarks.push_back(R);
      }
    // Remarks of a later pass name places in the input file, not in the
    // previous pass's output.
    for (LaunchRemark &R : Result.Remarks) {
      unsigned Offset = offsetOf(Text, R.Position.Line, R.Position.Column);
      for (auto It = EarlierEdits.rbegin(); It != EarlierEdits.rend(); ++It)
        Offset = It->originalOffset(Offset, &R.InGeneratedCode);
      std::tie(R.Position.Line, R.Position.Column) = lineAndColumnOf(InputText, Offset);
    }
    llvm::Expected<std::string> Next = Result.Edits.apply(Text);
    if (!Next)
      return makeError("internal error: " + llvm::toString(Next.takeError()) +
                       "; nothing was written");
    Text = std::move(*Next);
    EarlierEdits.push_back(std::move(Result.Edits));
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

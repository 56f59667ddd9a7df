#include "TransformPipeline.h"

#include "Frontend/Frontend.h"
#include "Rewrite/RuntimeEmbedding.h"
#include "llvm/Support/MemoryBuffer.h"
#include <functional>
#include <tuple>

namespace launchopt {

namespace {

// A pass applied to the current text of the file.
using PassFn = std::function<PassResult(clang::ASTContext &, const LaunchAnalysis &)>;

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

bool parseAggregationGranularity(llvm::StringRef G, AggregateOptions &Options) {
  if (G == "warp")
    Options.Granularity = AggregationGranularity::Warp;
  else if (G == "block")
    Options.Granularity = AggregationGranularity::Block;
  else if (G == "grid")
    Options.Granularity = AggregationGranularity::Grid;
  else if (G.consume_front("multiblock:") && !G.getAsInteger(10, Options.GroupBlocks) &&
           Options.GroupBlocks > 0)
    Options.Granularity = AggregationGranularity::MultiBlock;
  else
    return false;
  return true;
}

llvm::Expected<PipelineOutput>
runTransformPipeline(const clang::tooling::CompilationDatabase &Compilations,
                     const std::string &Input, const std::string &InputText,
                     const ParseEnvironment &Env, const PipelineOptions &Options) {
  auto Failure = [](const llvm::Twine &Message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
  };
  std::vector<PassFn> Pipeline;
  if (Options.Threshold)
    Pipeline.push_back([O = *Options.Threshold](clang::ASTContext &Ctx, const LaunchAnalysis &A) {
      return ThresholdPass(O).run(Ctx, A);
    });
  if (Options.Coarsen)
    Pipeline.push_back([O = *Options.Coarsen](clang::ASTContext &Ctx, const LaunchAnalysis &A) {
      return CoarsenPass(O).run(Ctx, A);
    });
  if (Options.Aggregate)
    Pipeline.push_back([O = *Options.Aggregate](clang::ASTContext &Ctx, const LaunchAnalysis &A) {
      return AggregatePass(O).run(Ctx, A);
    });

  PipelineOutput Out;
  std::string &Text = Out.Text;
  Text = InputText;
  std::vector<SourceEdits> EarlierEdits;
  for (const PassFn &Pass : Pipeline) {
    std::unique_ptr<ParsedFile> Parsed = parseCudaFile(Compilations, Input, Env, &Text);
    if (!Parsed)
      return Failure("'" + Input + "' could not be parsed; nothing was written");
    clang::ASTContext &Ctx = Parsed->Unit->getASTContext();
    LaunchAnalysis Launches = analyzeLaunches(Ctx);
    PassResult Result = Pass(Ctx, Launches);
    if (EarlierEdits.empty())
      for (const UnresolvedLaunch &U : Launches.Unresolved) {
        LaunchRemark R;
        R.Position = U.Position;
        R.Pass = "transform";
        R.Message = "Clang 19 cannot resolve this device-side launch of a template kernel "
                    "from a non-template kernel; left untouched (a template parent, or a "
                    "non-template child, can be transformed)";
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
      return Failure("internal error: " + llvm::toString(Next.takeError()) +
                     "; nothing was written");
    Text = std::move(*Next);
    EarlierEdits.push_back(std::move(Result.Edits));
    Out.Remarks.insert(Out.Remarks.end(), Result.Remarks.begin(), Result.Remarks.end());
  }

  if (Options.EmbedRuntime) {
    llvm::Expected<std::string> Embedded = embedRuntime(Text);
    if (!Embedded)
      return Failure(llvm::toString(Embedded.takeError()) + "; nothing was written");
    Text = std::move(*Embedded);
  }
  return std::move(Out);
}

} // namespace launchopt

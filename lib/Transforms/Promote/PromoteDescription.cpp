#include "PromotePass.h"
#include "Support/MakeError.h"
#include "Transforms/ChoiceGrammar.h"
#include "Transforms/LaunchPass.h"

namespace launchopt {

namespace {
const char *const ModeGrammar = "P|PA:<N>|PO|PAO:<N>";
} // namespace

llvm::Expected<PromoteOptions> parsePromoteMode(const std::string &Text) {
  PromoteOptions Options;
  if (Text.empty())
    return Options;
  std::optional<ChoiceMatch> Match = matchChoice(ModeGrammar, Text);
  if (!Match)
    return makeError("--promote takes " + describeChoices(ModeGrammar));
  if (Match->Number)
    Options.PoolSize = Match->Number;
  Options.Overlap = Match->Alternative == "PO" || Match->Alternative == "PAO:<N>";
  return Options;
}

PassDescription describePromotePass() {
  PassDescription D;
  D.Help = "Promotion: a single-block kernel that relaunches itself from one thread at its "
           "end launches its successor at its start, released through a flag (P), or a pool "
           "of N successors at once (PA:N); PO and PAO:N also run the start of the successor's "
           "body that does not depend on the parent before the release";
  D.Value = FlagValue::Optional;
  D.ValueName = "mode";
  D.SummaryValue = "P";
  D.Create = [](const PassArguments &Arguments) -> llvm::Expected<std::unique_ptr<LaunchPass>> {
    llvm::Expected<PromoteOptions> Options = parsePromoteMode(Arguments.Value);
    if (!Options)
      return Options.takeError();
    return std::make_unique<PromotePass>(*Options);
  };
  return D;
}

} // namespace launchopt

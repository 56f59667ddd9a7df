#include "RemoveLaunchesPass.h"
#include "Support/MakeError.h"
#include "Transforms/ChoiceGrammar.h"

namespace launchopt {

namespace {

const char *const VersionGrammar = "auto|T1|T2|T3|T4";

} // namespace

llvm::Expected<RemoveLaunchesOptions> parseRemovalVersion(const std::string &Text) {
  RemoveLaunchesOptions Options;
  if (Text.empty())
    return Options;
  std::optional<ChoiceMatch> Match = matchChoice(VersionGrammar, Text);
  if (!Match)
    return makeError("--remove-launches takes " + describeChoices(VersionGrammar));
  const std::pair<const char *, RemovalVersion> Versions[] = {{"auto", RemovalVersion::Auto},
                                                              {"T1", RemovalVersion::T1},
                                                              {"T2", RemovalVersion::T2},
                                                              {"T3", RemovalVersion::T3},
                                                              {"T4", RemovalVersion::T4}};
  for (const auto &[Name, Version] : Versions)
    if (Match->Alternative == Name)
      Options.Version = Version;
  return Options;
}

PassDescription describeRemoveLaunchesPass() {
  PassDescription D;
  D.Help = "Launch removal (free launch): the parent thread (T4) or the parent block (T3) runs "
           "the child grid instead of launching it, or a persistent parent grid runs the "
           "recorded child grids (T2) or child blocks (T1); auto picks T3 or T4 per site "
           "(auto|T1|T2|T3|T4)";
  D.Value = FlagValue::Optional;
  D.ValueName = "version";
  D.SummaryValue = "auto";
  D.Options = {{"removal-slots",
                "Default of the LAUNCHOPT_REMOVAL_SLOTS macro: launches a parent block records in "
                "shared memory before it uses the device heap (T3)",
                std::to_string(RemoveLaunchesOptions().DefaultSlots)}};
  D.Create = [](const PassArguments &Arguments) -> llvm::Expected<std::unique_ptr<LaunchPass>> {
    llvm::Expected<RemoveLaunchesOptions> Options = parseRemovalVersion(Arguments.Value);
    if (!Options)
      return Options.takeError();
    Options->DefaultSlots = Arguments.number("removal-slots");
    Options->AssumeIndependentChildren = Arguments.Shared.AssumeIndependentChildren;
    return std::make_unique<RemoveLaunchesPass>(*Options);
  };
  return D;
}

} // namespace launchopt

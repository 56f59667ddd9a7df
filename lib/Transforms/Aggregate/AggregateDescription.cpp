#include "AggregatePass.h"
#include "Support/MakeError.h"
#include "Transforms/ChoiceGrammar.h"
#include "Transforms/LaunchPass.h"

namespace launchopt {

namespace {

// Spelled as Passes.def's tunable variant spells it, so that the tuner
// accepts what the pass accepts.
const char *const GranularityGrammar =
    "warp|block|multiblock:<N>|grid|host|host-or-device|threads|threads:warp|threads:block|"
    "threads:multiblock:<N>|threads:grid|threads:host|threads:host-or-device";
// Thread packing alone aggregates the whole parent grid: one packed grid of
// every child thread it launches.
const char *const ThreadsPrefix = "threads:";

} // namespace

llvm::Expected<AggregateOptions> parseAggregationGranularity(const std::string &Text) {
  std::optional<ChoiceMatch> Match = matchChoice(GranularityGrammar, Text);
  if (!Match)
    return makeError("--aggregate takes " + describeChoices(GranularityGrammar));
  AggregateOptions Options;
  std::string Alternative = Match->Alternative;
  if (Alternative == "threads")
    Alternative = ThreadsPrefix + std::string("grid");
  if (Alternative.rfind(ThreadsPrefix, 0) == 0) {
    Options.PackThreads = true;
    Alternative.erase(0, std::string(ThreadsPrefix).size());
  }
  if (Alternative == "warp")
    Options.Granularity = AggregationGranularity::Warp;
  else if (Alternative == "block")
    Options.Granularity = AggregationGranularity::Block;
  else if (Alternative == "grid")
    Options.Granularity = AggregationGranularity::Grid;
  else if (Alternative == "host" || Alternative == "host-or-device") {
    Options.Granularity = AggregationGranularity::Grid;
    Options.HostLaunch = true;
    Options.HostWhenLarge = Alternative == "host-or-device";
  } else {
    Options.Granularity = AggregationGranularity::MultiBlock;
    Options.GroupBlocks = Match->Number;
  }
  return Options;
}

PassDescription describeAggregatePass() {
  PassDescription D;
  D.Help = "Aggregation: the child grids launched by a warp, a block, a group of N blocks or "
           "the whole grid become one launch (warp|block|multiblock:N|grid); host: the whole grid, "
           "its aggregated grid launched by the host after a host-launched parent (no device-side "
           "launch); host-or-device: so for parent grids of at least "
           "LAUNCHOPT_HOST_MIN_PARENT_THREADS (16384) threads, multi-block aggregation launched "
           "from the device for smaller ones (-rdc); threads or threads:<granularity> packs the "
           "child threads densely where they are independent (threads alone: grid)";
  D.Value = FlagValue::Required;
  D.ValueName = "granularity";
  D.SummaryValue = "block";
  D.Options = {{"aggregate-threshold",
                "Default of the LAUNCHOPT_AGG_THRESHOLD macro: warp and block scopes with fewer "
                "launches launch them one by one",
                std::to_string(AggregateOptions().DefaultThreshold)}};
  D.Create = [](const PassArguments &Arguments) -> llvm::Expected<std::unique_ptr<LaunchPass>> {
    llvm::Expected<AggregateOptions> Options = parseAggregationGranularity(Arguments.Value);
    if (!Options)
      return Options.takeError();
    Options->DefaultThreshold = Arguments.number("aggregate-threshold");
    Options->AssumeIndependentChildren = Arguments.Shared.AssumeIndependentChildren;
    return std::make_unique<AggregatePass>(*Options);
  };
  return D;
}

} // namespace launchopt

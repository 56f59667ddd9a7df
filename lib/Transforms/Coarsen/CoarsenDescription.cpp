#include "CoarsenPass.h"
#include "Transforms/LaunchPass.h"

namespace launchopt {

PassDescription describeCoarsenPass() {
  PassDescription D;
  D.Help = "Coarsening: each block of a child launched from device code runs "
           "LAUNCHOPT_CFACTOR original blocks";
  D.Options = {{"coarsen-factor", "Default of the LAUNCHOPT_CFACTOR macro written into the output",
                std::to_string(CoarsenOptions().DefaultFactor)}};
  D.Create = [](const PassArguments &Arguments) -> llvm::Expected<std::unique_ptr<LaunchPass>> {
    CoarsenOptions Options;
    Options.DefaultFactor = Arguments.number("coarsen-factor");
    Options.AggregationFollows = Arguments.Shared.AggregationFollows;
    return std::make_unique<CoarsenPass>(Options);
  };
  return D;
}

} // namespace launchopt

#include "ThresholdPass.h"
#include "Transforms/LaunchPass.h"

namespace launchopt {

PassDescription describeThresholdPass() {
  PassDescription D;
  D.Help = "Thresholding: launch a child from device code only when it has at least "
           "LAUNCHOPT_THRESHOLD threads, else run it serially in the parent thread";
  D.Options = {{"threshold-value",
                "Default of the LAUNCHOPT_THRESHOLD macro written into the output (a build can "
                "override it with -DLAUNCHOPT_THRESHOLD=N)",
                std::to_string(ThresholdOptions().DefaultThreshold)}};
  D.Create = [](const PassArguments &Arguments) -> llvm::Expected<std::unique_ptr<LaunchPass>> {
    ThresholdOptions Options;
    Options.DefaultThreshold = Arguments.number("threshold-value");
    Options.AssumeIndependentChildren = Arguments.Shared.AssumeIndependentChildren;
    return std::make_unique<ThresholdPass>(Options);
  };
  return D;
}

} // namespace launchopt

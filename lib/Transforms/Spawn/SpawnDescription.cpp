#include "SpawnPass.h"
#include "Transforms/LaunchPass.h"

namespace launchopt {

PassDescription describeSpawnPass() {
  PassDescription D;
  D.Help = "Controlled launch (SPAWN): a device-side launch runs only when the runtime "
           "controller expects the child to finish sooner launched than run serially by the "
           "parent thread, and while the pending-launch pool and the concurrent-grid limit have "
           "room; else the parent thread runs it serially, or, for a child that cannot run there "
           "(barriers, shared memory), the launch is deferred to after the parent grid";
  D.Create = [](const PassArguments &Arguments) -> llvm::Expected<std::unique_ptr<LaunchPass>> {
    SpawnOptions Options;
    Options.AssumeIndependentChildren = Arguments.Shared.AssumeIndependentChildren;
    return std::make_unique<SpawnPass>(Options);
  };
  return D;
}

} // namespace launchopt

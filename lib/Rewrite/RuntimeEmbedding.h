#ifndef LAUNCHOPT_REWRITE_RUNTIMEEMBEDDING_H
#define LAUNCHOPT_REWRITE_RUNTIMEEMBEDDING_H

#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// The output text with each `#include <launchopt/NAME>` line a pass emitted
// replaced by the runtime header, so it compiles without launchopt.
llvm::Expected<std::string> embedRuntime(const std::string &Text);

} // namespace launchopt

#endif

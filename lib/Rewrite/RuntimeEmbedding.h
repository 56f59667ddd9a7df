#ifndef LAUNCHOPT_REWRITE_RUNTIMEEMBEDDING_H
#define LAUNCHOPT_REWRITE_RUNTIMEEMBEDDING_H

#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// The output text with each `#include <launchopt/NAME>` line a pass emitted
// replaced by the runtime header, so it compiles without launchopt.
llvm::Expected<std::string> embedRuntime(const std::string &Text);

// Whether a pass's output includes the runtime header that holds the record
// pool (`#include <launchopt/aggregation.cuh>`).
bool usesRecordPool(const std::string &Text);

// Text with the marks that make its record pool the program's: the output of
// one of several files that share one pool (the pool is defined in the
// output marked Defines, declared in the others). Before embedding.
std::string markProgramPool(const std::string &Text, bool Defines);

} // namespace launchopt

#endif

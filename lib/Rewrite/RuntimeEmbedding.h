#ifndef LAUNCHOPT_REWRITE_RUNTIMEEMBEDDING_H
#define LAUNCHOPT_REWRITE_RUNTIMEEMBEDDING_H

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace launchopt {

// The output text with each `#include <launchopt/NAME>` line a pass emitted
// replaced by the runtime header, so it compiles without launchopt.
llvm::Expected<std::string> embedRuntime(const std::string &Text);

// Runtime state that the outputs of one program share when several of them
// use it (launchopt given several files as one program, built with -rdc):
// the record pool of aggregation, the pending-launch count of deferral, the
// spawn controller.
struct ProgramState {
  const char *Header; // the runtime header that holds it: "aggregation.cuh"
  const char *Macro;  // LAUNCHOPT_PROGRAM_POOL; <Macro>_DEFINITION defines it
  const char *What;   // "record pool", for the comment
};
const std::vector<ProgramState> &programStates();

// Whether a pass's output includes State's runtime header.
bool usesProgramState(const std::string &Text, const ProgramState &State);

// Text with the marks that make State the program's: the output of one of
// several files that share it (defined in the output marked Defines,
// declared in the others). Before embedding; the marks go before the
// output's first runtime header, which may include State's.
std::string markProgramState(const std::string &Text, const ProgramState &State, bool Defines);

} // namespace launchopt

#endif

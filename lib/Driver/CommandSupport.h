#ifndef LAUNCHOPT_DRIVER_COMMANDSUPPORT_H
#define LAUNCHOPT_DRIVER_COMMANDSUPPORT_H

// What every launchopt subcommand shares: exit codes, the error line, reading
// the input file and the toolkit the parser uses.

#include "Frontend/CompilerFlags.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// Exit codes of every launchopt command.
enum ExitCode { ExitSuccess = 0, ExitInputError = 1, ExitUsageError = 2 };

// Prints "<Command>: error: <Message>" to standard error and returns Code.
int fail(llvm::StringRef Command, int Code, const llvm::Twine &Message);

// The whole text of Path, or why it cannot be read.
llvm::Expected<std::string> readInputFile(const std::string &Path);

// The parse environment launchopt was built for, with --cuda-path applied
// when the user gave one.
ParseEnvironment parseEnvironmentFor(llvm::StringRef CudaPath);

} // namespace launchopt

#endif

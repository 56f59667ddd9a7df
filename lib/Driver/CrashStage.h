#ifndef LAUNCHOPT_DRIVER_CRASHSTAGE_H
#define LAUNCHOPT_DRIVER_CRASHSTAGE_H

// What launchopt says when it crashes: the stage it was in and the input it
// worked on, instead of a bare abort. A command marks its stages with
// CrashStage; installCrashHandlers (once, first thing in main) makes an
// uncaught exception and a fatal signal print the innermost stage.

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/PrettyStackTrace.h"
#include <string>

namespace launchopt {

// Exit code of an internal error caught by the handlers (an uncaught
// exception): distinct from the input and usage errors of CommandSupport.h.
inline constexpr int ExitInternalError = 70;

class CrashStage : public llvm::PrettyStackTraceEntry {
public:
  // Stage: what launchopt does ("parsing", "searching the fusion plan of");
  // Input: the file it does it to.
  CrashStage(std::string Stage, std::string Input);
  ~CrashStage() override;
  CrashStage(const CrashStage &) = delete;
  CrashStage &operator=(const CrashStage &) = delete;
  // "launchopt: internal error while <stage> '<input>'"
  std::string message() const;
  void print(llvm::raw_ostream &OS) const override;

private:
  std::string Stage, Input;
  const CrashStage *Outer;
};

// A fatal signal prints the stack of stages (LLVM's pretty stack trace); an
// uncaught exception prints the innermost stage and what was thrown, and
// exits with ExitInternalError.
void installCrashHandlers(const char *Argv0);

// For tests of the handlers only (the hidden --testing-only-crash option):
// "exception" throws std::bad_alloc, "signal" raises SIGSEGV.
void forceCrashForTesting(llvm::StringRef How);

} // namespace launchopt

#endif
